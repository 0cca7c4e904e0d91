/* gosolve.c — see gosolve.h. */
#include "gosolve.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PATH 256

typedef struct { uint64_t key; uint8_t result, depth; } tt_entry;

struct gs_solver {
    tt_entry *table;
    uint64_t mask;
    long nodes, budget;
    uint64_t salt;                   /* changes per query: old entries stop matching */
    int aborted;
    int npath;
    uint64_t path[MAX_PATH];
};

gs_solver *gs_new(int table_bits)
{
    gs_solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->table = calloc((size_t)1 << table_bits, sizeof *s->table);
    if (!s->table) { free(s); return NULL; }
    s->mask = ((uint64_t)1 << table_bits) - 1;
    return s;
}

void gs_free(gs_solver *s)
{
    if (!s) return;
    free(s->table);
    free(s);
}

void gs_clear(gs_solver *s) { s->salt += 0x2545f4914f6cdd1dULL; }

long gs_nodes(const gs_solver *s) { return s->nodes; }

gs_result gs_status(const go_board *b, const gs_query *q)
{
    int defender = GO_OTHER(q->attacker);
    if (b->color[q->target] != defender) return GS_WIN;
    uint8_t alive[GO_AREA];
    /* two vital regions need two liberties: a chain in atari is never alive */
    if (go_in_atari(b, q->target)) return GS_UNKNOWN;
    if (go_benson(b, defender, alive) && alive[q->target]) return GS_LOSS;
    return GS_UNKNOWN;
}

static uint64_t node_key(const gs_solver *s, const go_board *b)
{
    return s->salt ^ b->hash ^ ((uint64_t)b->to_move * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)b->ko * 0xc2b2ae3d27d4eb4fULL)
        ^ ((uint64_t)(b->passes > 0) * 0x165667b19e3779f9ULL);
}

/* the outcome for the side to move, searching at most depth plies */
static gs_result search(gs_solver *s, const go_board *b, const gs_query *q, int depth)
{
    if (++s->nodes > s->budget) { s->aborted = 1; return GS_UNKNOWN; }
    int me = b->to_move, attacker = q->attacker;
    gs_result st = gs_status(b, q);
    if (st != GS_UNKNOWN) return (st == GS_WIN) == (me == attacker) ? GS_WIN : GS_LOSS;
    uint64_t key = node_key(s, b);
    tt_entry *e = &s->table[key & s->mask];
    if (e->key == key && e->result) return (gs_result)e->result;
    if (depth <= 0) return GS_UNKNOWN;

    /* moves: allowed empty points, liberties of the target first, then pass */
    int moves[GO_AREA + 1], n = 0, front = 0;
    int libs[GO_AREA];
    int nl = go_chain_libs(b, q->target, libs);
    uint8_t isfirst[GO_AREA];
    memset(isfirst, 0, sizeof isfirst);
    for (int i = 0; i < nl; i++) if (q->allowed[libs[i]]) { moves[n++] = libs[i]; isfirst[libs[i]] = 1; }
    front = n;
    int area = b->stride * b->stride;
    for (int p = 0; p < area; p++)
        if (q->allowed[p] && b->color[p] == GO_EMPTY && !isfirst[p]) moves[n++] = p;
    (void)front;
    moves[n++] = GO_PASS;

    int unknown = 0;
    if (s->npath >= MAX_PATH) return GS_UNKNOWN;
    s->path[s->npath++] = key;
    for (int i = 0; i < n; i++) {
        int m = moves[i];
        go_board c = *b;
        if (m == GO_PASS) {
            if (b->passes > 0) {
                /* two passes: the target lives */
                gs_result r = me == attacker ? GS_LOSS : GS_WIN;
                if (r == GS_WIN) { s->npath--; goto win; }
                continue;
            }
            go_play(&c, me, GO_PASS);
        } else {
            if (go_check(b, me, m) != GO_OK) continue;
            go_play(&c, me, m);
            if (q->ko_winner && c.ko && me != q->ko_winner) continue;   /* no ko threats */
        }
        uint64_t ck = node_key(s, &c);
        int repeated = 0;
        for (int k = 0; k < s->npath; k++) if (s->path[k] == ck) { repeated = 1; break; }
        if (repeated) continue;
        gs_result r = search(s, &c, q, depth - 1);
        if (r == GS_LOSS) { s->npath--; goto win; }
        if (r == GS_UNKNOWN) unknown = 1;
        if (s->aborted) break;
    }
    s->npath--;
    if (unknown || s->aborted) return GS_UNKNOWN;
    e->key = key; e->result = GS_LOSS;
    return GS_LOSS;
win:
    e->key = key; e->result = GS_WIN;
    return GS_WIN;
}

gs_result gs_solve(gs_solver *s, const go_board *b, const gs_query *q, int *depth)
{
    s->nodes = 0;
    s->budget = q->max_nodes > 0 ? q->max_nodes : 1000000;
    s->aborted = 0;
    s->npath = 0;
    for (int d = 1; d <= q->max_depth; d += 2) {
        gs_result r = search(s, b, q, d);
        if (r != GS_UNKNOWN) { if (depth) *depth = d; return r; }
        if (s->aborted) break;
    }
    return GS_UNKNOWN;
}
