/* gosolve.h — a local life-and-death solver over src/go.c: depth-first
 * AND/OR search with iterative deepening and a table of proven positions.
 * The attacker wins when the target chain is captured; the defender wins when
 * the target is unconditionally alive (Benson) or both sides pass with it on
 * the board (seki counts as life). Moves are limited to the allowed points
 * (plus pass). Kos: with ko_winner set, the other side may not take a ko
 * (it has no threats); comparing both settings tells whether an answer
 * depends on a ko. A position repeated on the path is not entered. */
#ifndef TABULA_GOSOLVE_H
#define TABULA_GOSOLVE_H

#include "go.h"

typedef enum { GS_UNKNOWN = 0, GS_WIN = 1, GS_LOSS = 2 } gs_result;   /* for the side to move */

typedef struct {
    int attacker;                    /* GO_BLACK or GO_WHITE */
    int target;                      /* a point of the defender's chain */
    uint8_t allowed[GO_AREA];        /* 1 where a move may be played */
    long max_nodes;                  /* budget for one gs_solve call (all depths) */
    int max_depth;                   /* plies */
    int ko_winner;                   /* 0: simple ko only; else the other colour may not take kos */
} gs_query;

typedef struct gs_solver gs_solver;

gs_solver *gs_new(int table_bits);   /* NULL when out of memory */
void gs_free(gs_solver *s);
void gs_clear(gs_solver *s);         /* forget proven positions (a new query) */

/* the result for the side to move on b; *depth = plies of the proof when proven */
gs_result gs_solve(gs_solver *s, const go_board *b, const gs_query *q, int *depth);
long gs_nodes(const gs_solver *s);   /* nodes searched by the last gs_solve */

/* the terminal test alone: GS_WIN when the attacker has won, GS_LOSS when the
 * defender has, GS_UNKNOWN otherwise */
gs_result gs_status(const go_board *b, const gs_query *q);
#endif
