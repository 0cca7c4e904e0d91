/* gosolve.h — a local life-and-death solver over src/go.c. Two searches:
 *   GS_DFPN (default): depth-first proof-number search (df-pn) with a
 *     transposition table of proof and disproof numbers;
 *   GS_ID: the first solver, depth-first AND/OR search with iterative
 *     deepening and a table of proven positions (the generator of
 *     games/go/suite.jsonl uses it, so the suite regenerates byte for byte).
 * The attacker wins by capturing the target (with several targets: any of
 * them, or all of them when `all` is set); the defender wins when the target
 * is safe (every target, or any target when `all`) or both sides pass with it
 * on the board (seki counts as life). Safe: unconditionally alive (Benson); for
 * GS_DFPN also two one-point eyes of its own, or a liberty where no move may be
 * played (such a liberty can never be filled); with outside_safe also dead
 * shapes (zone_dead in gosolve.c: one or two points of eye space, three points
 * with the attacker to move or holding the middle, the pyramid four, bulky five,
 * crossed five and rabbity six with the attacker to move or, the defender to
 * move, on the vital point; the squared four). GS_DFPN also counts a position
 * won for the attacker when it is to move and a target is in atari with its
 * capture allowed and legal (not a ko it may not take), so such a node is never
 * searched. Moves are limited to the allowed
 * points (plus pass; GS_DFPN: the defender's pass only, the attacker's never
 * wins; with outside_safe and ko_winner, only moves inside the targets' zones,
 * which anchored stones close for good). Kos: with ko_winner set, the other side may not take a ko
 * (it has no threats); comparing both settings tells whether an answer
 * depends on a ko. A position repeated on the path is not entered. GS_DFPN
 * with `simulate`: a refuted move's unproven siblings are first tried by
 * replaying the refutation's proof from the table (Kawano's simulation; every
 * node checked on the sibling's own position, its nodes in the budget). */
#ifndef TABULA_GOSOLVE_H
#define TABULA_GOSOLVE_H

#include "go.h"

typedef enum { GS_UNKNOWN = 0, GS_WIN = 1, GS_LOSS = 2 } gs_result;   /* for the side to move */
typedef enum { GS_DFPN = 0, GS_ID = 1 } gs_method;

#define GS_MAX_TARGETS 32

typedef struct {
    int attacker;                    /* GO_BLACK or GO_WHITE */
    int target;                      /* a point of the defender's chain */
    int ntargets;                    /* extra targets (0: just `target`) */
    int targets[GS_MAX_TARGETS];     /* points of defender chains, target first */
    int all;                         /* 1: the attacker must capture every target */
    uint8_t allowed[GO_AREA];        /* 1 where a move may be played */
    long max_nodes;                  /* budget for one gs_solve call (all depths) */
    int max_depth;                   /* plies (GS_ID) */
    int ko_winner;                   /* 0: simple ko only; else the other colour may not take kos */
    int outside_safe;                /* GS_DFPN: attacker stones where no move may be played cannot be
                                      * captured (a move that would is not considered) */
    int near;                        /* GS_DFPN: > 0, moves only this far (in steps) from a defender stone */
    int simulate;                    /* GS_DFPN: 1, a refuted move's siblings are first tried with its
                                      * refutation (simulation; proves only what search would, faster) */
    gs_method method;
} gs_query;

typedef struct gs_solver gs_solver;

gs_solver *gs_new(int table_bits);   /* NULL when out of memory */
void gs_free(gs_solver *s);
void gs_clear(gs_solver *s);         /* forget proven positions (a new query) */

/* the result for the side to move on b; *depth = plies of the proof when proven */
gs_result gs_solve(gs_solver *s, const go_board *b, const gs_query *q, int *depth);
long gs_nodes(const gs_solver *s);   /* nodes searched by the last gs_solve */
long gs_simulated(const gs_solver *s);   /* siblings the last gs_solve proved by simulation */

/* the terminal test alone: GS_WIN when the attacker has won, GS_LOSS when the
 * defender has, GS_UNKNOWN otherwise */
gs_result gs_status(const go_board *b, const gs_query *q);
#endif
