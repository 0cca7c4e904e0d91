/* chess.h — chess rules on a 0x88 board: FEN, legal moves (castling through
 * check, en passant, promotion), make/undo, check, game status (checkmate,
 * stalemate, insufficient material, fivefold repetition, the 75-move rule),
 * perft. Pure C; no allocation. Square = rank * 16 + file (a1 = 0, h8 = 0x77). */
#ifndef TABULA_CHESS_H
#define TABULA_CHESS_H

#include <stddef.h>
#include <stdint.h>

enum { CH_EMPTY = 0, CH_PAWN, CH_KNIGHT, CH_BISHOP, CH_ROOK, CH_QUEEN, CH_KING };
enum { CH_WHITE = 0, CH_BLACK = 1 };
#define CH_BLACK_BIT 8
#define CH_MAX_MOVES 256
#define CH_MAX_HISTORY 2048

#define CH_SQ(f, r) ((r) * 16 + (f))
#define CH_FILE(s) ((s) & 7)
#define CH_RANK(s) ((s) >> 4)
#define CH_TYPE(p) ((p) & 7)
#define CH_COLOR(p) (((p) >> 3) & 1)

/* move: from | to << 7 | promotion type << 14 | flags << 17 */
typedef uint32_t ch_move;
#define CH_FROM(m) ((int)((m) & 127))
#define CH_TO(m) ((int)(((m) >> 7) & 127))
#define CH_PROMO(m) ((int)(((m) >> 14) & 7))
#define CH_FLAGS(m) ((int)((m) >> 17))
enum { CH_F_CAPTURE = 1, CH_F_EP = 2, CH_F_CASTLE = 4, CH_F_DOUBLE = 8 };

enum { CH_WK = 1, CH_WQ = 2, CH_BK = 4, CH_BQ = 8 };

typedef struct {
    uint8_t sq[128];
    int side, castling, ep;          /* ep: target square or -1 */
    int king[2];
    int halfmove, fullmove;
    uint64_t key;                    /* pieces, side, castling rights (not en passant) */
    int nhist;                       /* game history, kept by ch_play / ch_unplay */
} ch_board;

typedef struct {
    ch_move move;
    uint8_t captured;
    int castling, ep, halfmove;
    uint64_t key;
} ch_undo;

/* a game: the board plus what repetition needs */
typedef struct {
    ch_board b;
    uint64_t hist_key[CH_MAX_HISTORY];   /* position keys before each move */
    ch_undo hist[CH_MAX_HISTORY];
} ch_game;

typedef enum {
    CH_ONGOING = 0, CH_CHECKMATE, CH_STALEMATE, CH_INSUFFICIENT, CH_FIVEFOLD, CH_SEVENTY_FIVE
} ch_status;

#define CH_START_FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

int  ch_from_fen(ch_board *b, const char *fen, char *err, size_t errlen);
void ch_to_fen(const ch_board *b, char *out, size_t outlen);

int  ch_gen_moves(ch_board *b, ch_move *out);     /* legal moves */
void ch_do_move(ch_board *b, ch_move m, ch_undo *u);
void ch_undo_move(ch_board *b, const ch_undo *u);
int  ch_attacked(const ch_board *b, int sq, int by);
int  ch_in_check(const ch_board *b);
uint64_t ch_position_key(const ch_board *b);     /* key + en passant when a capture there is possible */

int  ch_play(ch_game *g, ch_move m);               /* a legal move: 0; else -1 */
int  ch_unplay(ch_game *g);                        /* 0, or -1 with no history */
int  ch_count_repetitions(const ch_game *g);       /* occurrences of the current position */
ch_status ch_status_of(ch_game *g);
uint64_t ch_perft(ch_board *b, int depth);

/* UCI "e2e4", "e7e8q": finds the legal move, or returns 0 */
ch_move ch_find_uci(ch_board *b, const char *uci);
void ch_format_uci(ch_move m, char out[6]);

#endif
