/* xqsearch.h — the built-in Xiangqi search: alpha-beta with iterative
 * deepening, a transposition table, quiescence on captures, check extension,
 * move ordering (hash move, MVV-LVA, killers, history) and mate scores that
 * carry distance; a forced-mate search (any attacker move, or checks only);
 * and the rule-based fallback defender of the XiangqiBench protocol.
 * Pure C, single-threaded, deterministic for a fixed depth or node limit (the
 * tables are cleared at the start of every search). */
#ifndef TABULA_XQSEARCH_H
#define TABULA_XQSEARCH_H

#include "xiangqi.h"

#define XQS_MATE 30000
#define XQS_MAX_PLY 96

typedef struct xqs_ctx xqs_ctx;

typedef struct {
    int depth;            /* maximum iteration depth in plies (0: 64) */
    uint64_t nodes;       /* node budget (0: none) */
    double time_ms;       /* time budget (0: none); not deterministic */
} xqs_limits;

typedef struct {
    xq_move best;         /* 0 when the side to move has no legal move */
    int score;            /* centipawns for the side to move; |score| > XQS_MATE - 1000 is a mate */
    int mate;             /* plies to mate: > 0 the side to move mates, < 0 it is mated, 0 none seen */
    int depth;            /* last completed iteration */
    uint64_t nodes;
    int pv_len;
    xq_move pv[XQS_MAX_PLY];
    int stopped;          /* a limit cut the last iteration short */
} xqs_result;

typedef struct {
    int found;            /* 1: a forced mate within max_plies; 0: none; -1: budget ran out first */
    int plies;            /* its distance when found */
    uint64_t nodes;
    int pv_len;
    xq_move pv[XQS_MAX_PLY];
} xqs_mate_result;

xqs_ctx *xqs_new(int tt_mb);           /* NULL when out of memory */
void     xqs_free(xqs_ctx *c);

int  xqs_evaluate(const xq_board *b);   /* static evaluation, side to move's view */
void xqs_search(xqs_ctx *c, xq_board *b, const xqs_limits *lim, xqs_result *r);
/* Can the side to move force mate within max_plies (odd counts are the ones
 * that matter)? Tries distances 1, 3, 5, ... so the first found is the shortest. */
void xqs_mate(xqs_ctx *c, xq_board *b, int max_plies, int checks_only, uint64_t node_budget,
              xqs_mate_result *r);

typedef struct {
    xq_move move;
    int mate_plies;       /* opponent's mate distance after it; 0 if none within the horizon */
    int gives_check;
} xqs_defence;

/* The protocol's fallback defender: for each legal move, a forced-mate search
 * of `horizon` plies for the opponent; prefer moves after which no mate is
 * found, then the longest mate, then checking moves; ties by move string.
 * Returns the number of moves scored into out (sorted best first). */
int xqs_defend(xqs_ctx *c, xq_board *b, int horizon, xqs_defence *out);

#endif
