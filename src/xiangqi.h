/* xiangqi.h — Xiangqi (Chinese chess) rules: board, FEN, legal moves,
 * make/undo, check, game status, repetition, perft. Pure C; no allocation.
 *
 * Squares: a 16x16 mailbox. File f (0..8 = a..i) and rank r (0..9, Red's back
 * rank is 0) live at sq = (r + 3) * 16 + (f + 3); everything else is XQ_OFF.
 * Red moves "up" (+16). A move is from | to << 8. */
#ifndef TABULA_XIANGQI_H
#define TABULA_XIANGQI_H

#include <stddef.h>
#include <stdint.h>

enum { XQ_EMPTY = 0, XQ_KING, XQ_ADVISOR, XQ_ELEPHANT, XQ_HORSE, XQ_ROOK, XQ_CANNON, XQ_PAWN };
enum { XQ_RED = 0, XQ_BLACK = 1 };
#define XQ_BLACK_BIT 8
#define XQ_OFF 16
#define XQ_MAX_MOVES 128      /* the most legal moves in any Xiangqi position is well under this */
#define XQ_MAX_HISTORY 1024

#define XQ_SQ(f, r) (((r) + 3) * 16 + (f) + 3)
#define XQ_FILE(sq) (((sq) & 15) - 3)
#define XQ_RANK(sq) (((sq) >> 4) - 3)
#define XQ_TYPE(p) ((p) & 7)
#define XQ_COLOR(p) (((p) >> 3) & 1)
#define XQ_MOVE(from, to) ((xq_move)((from) | ((to) << 8)))
#define XQ_FROM(m) ((m) & 0xFF)
#define XQ_TO(m) ((m) >> 8)

typedef uint16_t xq_move;

typedef struct {
    uint8_t sq[256];
    int side;                  /* XQ_RED or XQ_BLACK to move */
    int king[2];               /* square of each general */
    uint64_t key;              /* Zobrist key of placement + side to move */
    int fullmove, halfmove;    /* kept for FEN output */
    /* game history, kept by xq_play/xq_unplay (not by xq_do_move) */
    int nhist;
    uint64_t hist_key[XQ_MAX_HISTORY];   /* key before move i */
    xq_move hist_move[XQ_MAX_HISTORY];
    uint8_t hist_check[XQ_MAX_HISTORY];  /* move i gave check */
    uint8_t hist_captured[XQ_MAX_HISTORY];
    uint16_t hist_halfmove[XQ_MAX_HISTORY];
} xq_board;

typedef struct {
    xq_move move;
    uint8_t captured;
    int halfmove;
    uint64_t key;
} xq_undo;

typedef enum { XQ_ONGOING = 0, XQ_NO_MOVES = 1 } xq_status;

typedef enum { XQ_REP_NONE = 0, XQ_REP_DRAW, XQ_REP_RED_LOSES, XQ_REP_BLACK_LOSES } xq_rep_result;

typedef struct {
    xq_rep_result result;
    int occurrences;       /* of the current position, counting it */
    int first_ply;         /* history index of its first occurrence */
    int red_moves, red_checks, black_moves, black_checks;   /* since the first occurrence */
} xq_repetition;

#define XQ_START_FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

void xq_init(void);   /* Zobrist tables; called by the functions below as needed */

/* Parse a FEN; on failure returns -1 and writes a message naming the problem. */
int  xq_from_fen(xq_board *b, const char *fen, char *err, size_t errlen);
void xq_to_fen(const xq_board *b, char *out, size_t outlen);   /* out >= 128 bytes */
/* Set up from a list of (square, piece) with the side to move, then validate
 * like a FEN. Used for piece-list notations. */
int  xq_from_pieces(xq_board *b, const int *squares, const uint8_t *pieces, int n, int side,
                    char *err, size_t errlen);
/* Is the placement (ignoring whose turn) legal: generals, counts, palace and
 * elephant points. Soldiers are not checked here: old compositions put them on
 * squares no game reaches (games/xiangqi reports those as findings). */
int  xq_check_placement(const xq_board *b, char *err, size_t errlen);

int  xq_gen_pseudo(const xq_board *b, xq_move *out);    /* moves ignoring own-general safety */
int  xq_gen_captures(const xq_board *b, xq_move *out);  /* the captures among them, in their order */
int  xq_count_pseudo(const xq_board *b, int color);     /* how many pseudo-legal moves color has */
int  xq_mobility(const xq_board *b);                     /* side to move's count minus the other's */
int  xq_gen_moves(xq_board *b, xq_move *out);           /* legal moves; b is restored */
int  xq_is_legal(xq_board *b, xq_move m);
int  xq_has_legal_move(xq_board *b);                    /* stops at the first one */
void xq_do_move(xq_board *b, xq_move m, xq_undo *u);
void xq_undo_move(xq_board *b, const xq_undo *u);
void xq_do_null(xq_board *b);                           /* pass: only the side to move changes (search) */
void xq_undo_null(xq_board *b);

int  xq_in_check(const xq_board *b);                    /* side to move's general attacked (or facing) */
int  xq_side_in_check(const xq_board *b, int color);
int  xq_gives_check(xq_board *b, xq_move m);            /* after m, is the opponent in check */
xq_status xq_status_of(xq_board *b);

/* Game-level play: legality checked, history and check flags recorded. */
int  xq_play(xq_board *b, xq_move m);                   /* 0, or -1 if illegal or history full */
int  xq_unplay(xq_board *b);                            /* 0, or -1 with no history */
void xq_repetition_of(const xq_board *b, xq_repetition *r);

uint64_t xq_perft(xq_board *b, int depth);

/* ICCS "h2e2" <-> move (no legality check). Returns -1 on bad text. */
int  xq_parse_iccs(const char *s, xq_move *m);
void xq_format_iccs(xq_move m, char out[5]);
char xq_piece_letter(uint8_t piece);                    /* 'K' .. 'p' */
int  xq_is_ok(const xq_board *b);                       /* internal consistency (debug) */

#endif
