/* go.h — Go rules on a padded board: sizes 2..25, play with captures, suicide
 * (illegal by default), simple ko, positional superko over a game history,
 * pass, Zobrist keys, chains and liberties, light playouts, Benson's
 * unconditional life, area scoring. Pure C; no allocation.
 *
 * A point is an index into a (size+2)^2 array with a border of GO_EDGE:
 * point(x, y) = (y + 1) * (size + 2) + x + 1, x = column from the left,
 * y = row from the top (SGF order: "aa" is x = 0, y = 0). GO_PASS is 0. */
#ifndef TABULA_GO_H
#define TABULA_GO_H

#include <stddef.h>
#include <stdint.h>

#define GO_MAX_SIZE 25
#define GO_STRIDE_MAX (GO_MAX_SIZE + 2)
#define GO_AREA (GO_STRIDE_MAX * GO_STRIDE_MAX)
#define GO_MAX_HISTORY 2048
#define GO_PASS 0

enum { GO_EMPTY = 0, GO_BLACK = 1, GO_WHITE = 2, GO_EDGE = 3 };
#define GO_OTHER(c) (3 - (c))

/* why a move is not legal */
typedef enum {
    GO_OK = 0, GO_OFFBOARD, GO_OCCUPIED, GO_KO, GO_SUICIDE, GO_SUPERKO, GO_FULL
} go_error;

typedef struct {
    int size, stride;
    int to_move;                     /* GO_BLACK or GO_WHITE */
    int ko;                          /* point the side to move may not retake, or 0 */
    int passes;                      /* consecutive passes */
    int allow_suicide;
    int captured[3];                 /* stones captured by black [1], white [2] */
    uint64_t hash;                   /* stones only (positional) */
    uint8_t color[GO_AREA];
    uint16_t head[GO_AREA];          /* chain representative of a stone */
    uint16_t next[GO_AREA];          /* circular list of a chain's stones */
    /* per representative: stones, pseudo-liberties and their sums (atari test) */
    uint16_t nstones[GO_AREA];
    uint16_t plibs[GO_AREA];
    uint32_t lsum[GO_AREA];
    uint32_t lsq[GO_AREA];
} go_board;

/* a history entry: a move (color, point; point 0 = pass) or a setup change
 * (setup = 1, color may be GO_EMPTY) */
typedef struct {
    uint16_t point;
    uint8_t color, setup;
} go_entry;

/* a game: the start board, its history (undo replays it) and the position
 * keys seen, for positional superko */
typedef struct {
    go_board start, b;
    int superko;                     /* forbid recreating any earlier position */
    int n;
    go_entry hist[GO_MAX_HISTORY];
    uint64_t keys[GO_MAX_HISTORY + 1];   /* keys[i] = position before entry i */
} go_game;

typedef struct { uint64_t s; } go_rng;

uint64_t go_rand(go_rng *r);

void go_board_init(go_board *b, int size);
int  go_point(const go_board *b, int x, int y);       /* 0 when off the board */
int  go_x(const go_board *b, int p);
int  go_y(const go_board *b, int p);
int  go_on_board(const go_board *b, int p);

/* legality without superko (occupied, ko, suicide); GO_OK or the reason */
go_error go_check(const go_board *b, int color, int p);
/* play color at p (GO_PASS passes); returns GO_OK or the reason, the board
 * unchanged when not legal. Sets to_move to the other colour. */
go_error go_play(go_board *b, int color, int p);
/* put color (or GO_EMPTY) at p without captures (setup stones) */
void go_setup(go_board *b, int color, int p);
/* the key the board would have after color plays at p (p must be legal) */
uint64_t go_key_after(const go_board *b, int color, int p);

/* chains */
int go_chain_stones(const go_board *b, int p, int *out);   /* count */
int go_chain_libs(const go_board *b, int p, int *out);     /* real liberties */
int go_chain_lib_count(const go_board *b, int p);
int go_in_atari(const go_board *b, int p);

/* a point whose four neighbours are color (or edge) and whose diagonals hold
 * at most one enemy stone (none on the edge) */
int go_is_eye(const go_board *b, int p, int color);

/* legal moves of color that do not fill its own eyes; count */
int go_gen_moves(const go_board *b, int color, int *out);

/* Benson: marks alive[p] = 1 for every stone of color that is unconditionally
 * alive; returns how many stones */
int go_benson(const go_board *b, int color, uint8_t *alive);

/* area score (black minus white, without komi): stones plus empty regions
 * reaching only one colour */
int go_area_score(const go_board *b);

/* plays random legal moves that do not fill own eyes until two passes or
 * max_moves; returns the number of moves played */
int go_playout(go_board *b, go_rng *r, int max_moves);

/* games */
void     go_game_init(go_game *g, int size);
go_error go_game_check(const go_game *g, int color, int p);   /* with superko */
go_error go_game_play(go_game *g, int color, int p);
int      go_game_setup(go_game *g, int color, int p);         /* 0, or -1 when full */
int      go_game_undo(go_game *g);                            /* 0, or -1 when empty */
void     go_game_set_to_move(go_game *g, int color);

const char *go_error_text(go_error e);
#endif
