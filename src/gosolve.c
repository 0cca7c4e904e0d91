/* gosolve.c — see gosolve.h. */
#include "gosolve.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PATH 256
#define INF 0x3fffffffu
#define BUCKET 4
#define STACK_MOVES (MAX_PATH * 128)

typedef struct {
    uint64_t key;
    uint32_t phi, delta;             /* df-pn: proof and disproof numbers for the side to move */
    uint32_t work;                   /* df-pn: nodes spent below this entry */
    uint16_t depth;                  /* plies of the proof when proven */
    uint8_t result;                  /* GS_ID: a proven result */
    int16_t best;                    /* df-pn, won for the side to move: the winning move (-1: none) */
} tt_entry;

/* term: 0, GS_WIN, GS_LOSS for the child's side to move (tdepth: the plies of
 * that proof); phi0, delta0: its first estimate */
typedef struct { int move; uint64_t key; uint8_t term, tdepth; uint32_t phi0, delta0; } child;

struct gs_solver {
    tt_entry *table;
    uint64_t mask;
    long nodes, budget;
    uint64_t salt;                   /* changes per query: old entries stop matching */
    int aborted;
    int npath;
    uint64_t path[MAX_PATH];
    int nstack;
    child stack[STACK_MOVES];
    go_board *boards;                /* df-pn: one board per ply of the path (off the C stack) */
    int nanchors;                    /* df-pn with outside_safe: the attacker's stones outside the moves */
    int anchors[GO_AREA];        /* df-pn: the children of the nodes on the path */
    go_board *sim_t, *sim_s;         /* simulation: the boards of the sibling and of the source, per ply */
    int swap_from, swap_to;          /* simulation: the source's move at the root and the sibling's */
    long simulated;                  /* siblings proven by simulation in the last gs_solve */
};

gs_solver *gs_new(int table_bits)
{
    gs_solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->table = calloc((size_t)1 << table_bits, sizeof *s->table);
    s->boards = malloc(MAX_PATH * sizeof *s->boards);
    s->sim_t = malloc(MAX_PATH * sizeof *s->sim_t);
    s->sim_s = malloc(MAX_PATH * sizeof *s->sim_s);
    if (!s->table || !s->boards || !s->sim_t || !s->sim_s) {
        free(s->table); free(s->boards); free(s->sim_t); free(s->sim_s); free(s);
        return NULL;
    }
    s->mask = ((uint64_t)1 << table_bits) - 1;
    return s;
}

void gs_free(gs_solver *s)
{
    if (!s) return;
    free(s->table);
    free(s->boards);
    free(s->sim_t);
    free(s->sim_s);
    free(s);
}

void gs_clear(gs_solver *s) { s->salt += 0x2545f4914f6cdd1dULL; }

long gs_nodes(const gs_solver *s) { return s->nodes; }

long gs_simulated(const gs_solver *s) { return s->simulated; }

static uint64_t node_key(const gs_solver *s, const go_board *b)
{
    return s->salt ^ b->hash ^ ((uint64_t)b->to_move * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)b->ko * 0xc2b2ae3d27d4eb4fULL)
        ^ ((uint64_t)(b->passes > 0) * 0x165667b19e3779f9ULL);
}

static int on_path(const gs_solver *s, uint64_t key)
{
    for (int k = 0; k < s->npath; k++) if (s->path[k] == key) return 1;
    return 0;
}

/* ---- the first solver (GS_ID): kept as it was, the suite depends on it ---- */

static gs_result status_id(const go_board *b, const gs_query *q)
{
    int defender = GO_OTHER(q->attacker);
    if (b->color[q->target] != defender) return GS_WIN;
    uint8_t alive[GO_AREA];
    /* two vital regions need two liberties: a chain in atari is never alive */
    if (go_in_atari(b, q->target)) return GS_UNKNOWN;
    if (go_benson(b, defender, alive) && alive[q->target]) return GS_LOSS;
    return GS_UNKNOWN;
}

/* the outcome for the side to move, searching at most depth plies */
static gs_result search(gs_solver *s, const go_board *b, const gs_query *q, int depth)
{
    if (++s->nodes > s->budget) { s->aborted = 1; return GS_UNKNOWN; }
    int me = b->to_move, attacker = q->attacker;
    gs_result st = status_id(b, q);
    if (st != GS_UNKNOWN) return (st == GS_WIN) == (me == attacker) ? GS_WIN : GS_LOSS;
    uint64_t key = node_key(s, b);
    tt_entry *e = &s->table[key & s->mask];
    if (e->key == key && e->result) return (gs_result)e->result;
    if (depth <= 0) return GS_UNKNOWN;

    /* moves: allowed empty points, liberties of the target first, then pass */
    int moves[GO_AREA + 1], n = 0;
    int libs[GO_AREA];
    int nl = go_chain_libs(b, q->target, libs);
    uint8_t isfirst[GO_AREA];
    memset(isfirst, 0, sizeof isfirst);
    for (int i = 0; i < nl; i++) if (q->allowed[libs[i]]) { moves[n++] = libs[i]; isfirst[libs[i]] = 1; }
    int area = b->stride * b->stride;
    for (int p = 0; p < area; p++)
        if (q->allowed[p] && b->color[p] == GO_EMPTY && !isfirst[p]) moves[n++] = p;
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
        if (on_path(s, ck)) continue;
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

static gs_result solve_id(gs_solver *s, const go_board *b, const gs_query *q, int *depth)
{
    for (int d = 1; d <= q->max_depth; d += 2) {
        gs_result r = search(s, b, q, d);
        if (r != GS_UNKNOWN) { if (depth) *depth = d; return r; }
        if (s->aborted) break;
    }
    return GS_UNKNOWN;
}

/* ---- df-pn ---- */

static int ntargets(const gs_query *q) { return q->ntargets > 0 ? q->ntargets : 1; }
static int target_at(const gs_query *q, int i) { return q->ntargets > 0 ? q->targets[i] : q->target; }

/* the liberties of p's chain, unsorted (go_chain_libs sorts and clears a whole
 * board of marks; this runs at every node) */
static int libs_of(const go_board *b, int p, int *out)
{
    int n = 0, h = b->head[p], x = h;
    do {
        int nb[4] = { x - 1, x + 1, x - b->stride, x + b->stride };
        for (int i = 0; i < 4; i++) {
            int l = nb[i];
            if (b->color[l] != GO_EMPTY) continue;
            int dup = 0;
            for (int k = 0; k < n && !dup; k++) dup = out[k] == l;
            if (!dup) out[n++] = l;
        }
        x = b->next[x];
    } while (x != h);
    return n;
}

/* a chain that can never be captured here: a liberty where no move may be
 * played, or two one-point eyes whose neighbours are all the chain itself;
 * with alive (Benson's result), also unconditionally alive. *nlibs = its liberties */
static int chain_safe(const go_board *b, const gs_query *q, int t, const uint8_t *alive, int *nlibs)
{
    int libs[GO_AREA];
    int nl = libs_of(b, t, libs), eyes = 0, h = b->head[t];
    *nlibs = nl;
    for (int i = 0; i < nl; i++) {
        int p = libs[i];
        if (!q->allowed[p]) return 1;
        int nb[4] = { p - 1, p + 1, p - b->stride, p + b->stride }, own = 1;
        for (int k = 0; k < 4; k++) {
            int c = b->color[nb[k]];
            if (c != GO_EDGE && !(c == b->color[t] && b->head[nb[k]] == h)) { own = 0; break; }
        }
        eyes += own;
    }
    if (eyes >= 2) return 1;
    return alive && nl >= 2 && alive[t];
}

#define MAX_EYE 6

static int adjacent(const go_board *b, int p, int q)
{
    int d = p - q;
    return d == 1 || d == -1 || d == b->stride || d == -b->stride;
}

/* the eye space e[0..n-1] (n = 3..MAX_EYE, 4-connected), each point empty
 * or holding an attacker stone (stone[i]), inside one defender chain whose
 * every liberty is in it, the attacker's chains around anchored: 1 when the
 * chain is dead. The rules (each with a test in tests/test_go_solve.lua):
 *   three points: dead with the attacker to move (it takes the middle, or
 *     fills); with the defender to move, dead when the middle holds an
 *     attacker stone (whatever the defender plays it is left one eye);
 *   empty shapes, the attacker to move: the pyramid (T) four, the bulky five,
 *     the crossed five, the rabbity (flower) six (it takes the vital point);
 *   empty, whoever moves: the squared four;
 *   the same killing shapes (pyramid four, bulky five, crossed five, rabbity
 *     six) with one attacker stone, on the vital point, the defender to move:
 *     the classical nakade, dead.
 * Anything else: 0 (searched) */
static int dead_shape(const go_board *b, const int *e, const uint8_t *stone, int n, int attacker_to_move)
{
    int deg[MAX_EYE] = { 0 }, nstones = 0, sq = 0;
    for (int i = 0; i < n; i++) {
        nstones += stone[i];
        for (int j = i + 1; j < n; j++) if (adjacent(b, e[i], e[j])) { deg[i]++; deg[j]++; }
    }
    uint8_t seen[MAX_EYE] = { 1 };
    int stack[MAX_EYE], ns = 0, reached = 1;
    stack[ns++] = 0;
    while (ns) {
        int i = stack[--ns];
        for (int j = 0; j < n; j++) if (!seen[j] && adjacent(b, e[i], e[j])) { seen[j] = 1; reached++; stack[ns++] = j; }
    }
    if (reached != n) return 0;                          /* two regions: maybe two eyes */
    for (int i = 0; i < n && !sq; i++) {                 /* a 2x2 block inside the shape */
        int p = e[i], have = 0;
        for (int j = 0; j < n; j++) if (e[j] == p + 1 || e[j] == p + b->stride || e[j] == p + b->stride + 1) have++;
        sq = have == 3;
    }
    int maxdeg = 0, vital = -1;
    for (int i = 0; i < n; i++) if (deg[i] > maxdeg) { maxdeg = deg[i]; vital = i; }
    if (n == 3) {
        if (attacker_to_move) return 1;
        for (int i = 0; i < n; i++) if (deg[i] == 2) return stone[i];
        return 0;
    }
    /* the killing shapes of four to six and their vital point (the point of
     * highest degree, unique in each) */
    int killing = (n == 4 && !sq && maxdeg == 3) || (n == 5 && (sq || maxdeg == 4)) || (n == 6 && sq && maxdeg == 4);
    if (n == 5 && sq) {
        /* the bulky five: its vital point is the one point of degree 3 */
        int three = 0;
        for (int i = 0; i < n; i++) if (deg[i] == 3) { three++; vital = i; }
        if (three != 1) killing = 0;
    }
    if (nstones == 0) {
        if (n == 4 && sq) return 1;                      /* squared four: dead */
        return attacker_to_move && killing;
    }
    return nstones == 1 && killing && !attacker_to_move && stone[vital];
}

/* with the outside safe: the attacker's chains holding an anchor (they
 * cannot be captured), marked by their heads */
static void mark_anchored(const gs_solver *s, const go_board *b, const gs_query *q, uint8_t *anchored)
{
    memset(anchored, 0, (size_t)(b->stride * b->stride));
    for (int k = 0; k < s->nanchors; k++) if (b->color[s->anchors[k]] == q->attacker) anchored[b->head[s->anchors[k]]] = 1;
}

/* with the outside safe: the target's zone, the points reached from it through
 * anything but anchored attacker chains (empty points, defender stones, the
 * attacker's other stones), is closed for good. The target is dead when the
 * zone's eye space (its empty points and attacker stones) is one or two
 * adjacent points (with two empty points, no defender chain in atari), or a
 * dead shape (dead_shape) around a single defender chain; every point of it
 * playable */
static int zone_dead(const gs_solver *s, const go_board *b, const gs_query *q, int t)
{
    if (!s->nanchors) return 0;
    int area = b->stride * b->stride, att = q->attacker;
    uint8_t seen[GO_AREA], anchored[GO_AREA], stone[MAX_EYE];
    memset(seen, 0, (size_t)area);
    mark_anchored(s, b, q, anchored);
    int stack[GO_AREA], ns = 0, eye[MAX_EYE], ne = 0, chains = 0, atari = 0;
    stack[ns++] = t; seen[t] = 1;
    while (ns) {
        int p = stack[--ns], c = b->color[p];
        if (c == GO_EMPTY || c == att) {
            if (ne == MAX_EYE || !q->allowed[p]) return 0;
            stone[ne] = c == att;
            eye[ne++] = p;
        } else if (b->head[p] == p) {                    /* a defender chain, counted at its head */
            int lb[GO_AREA];
            chains++;
            atari |= libs_of(b, p, lb) == 1;
        }
        int nb[4] = { p - 1, p + 1, p - b->stride, p + b->stride };
        for (int k = 0; k < 4; k++) {
            int n = nb[k], cn = b->color[n];
            if (cn == GO_EDGE || seen[n]) continue;
            if (cn == att && anchored[b->head[n]]) continue;
            seen[n] = 1; stack[ns++] = n;
        }
    }
    int nstones = 0;
    for (int i = 0; i < ne; i++) nstones += stone[i];
    if (ne <= 1) return 1;
    if (ne == 2) return adjacent(b, eye[0], eye[1]) && (nstones > 0 || !atari);
    if (chains != 1) return 0;
    return dead_shape(b, eye, stone, ne, b->to_move == att);
}

/* who has won: GS_WIN the attacker, GS_LOSS the defender; full = 1: also
 * the zone test and Benson, 2: the zone test only */
static gs_result status_dfpn(const gs_solver *s, const go_board *b, const gs_query *q, int full)
{
    int defender = GO_OTHER(q->attacker), n = ntargets(q), present = 0, safe = 0;
    uint8_t alive[GO_AREA];
    int have_alive = 0, zone = full >= 1 && s, benson = full == 1;
    for (int i = 0; i < n; i++) {
        int t = target_at(q, i);
        if (b->color[t] != defender || (zone && zone_dead(s, b, q, t))) { if (!q->all) return GS_WIN; continue; }
        present++;
        int nl, ok = chain_safe(b, q, t, NULL, &nl);
        if (!ok && benson && nl >= 2) {
            if (!have_alive) { go_benson(b, defender, alive); have_alive = 1; }
            ok = chain_safe(b, q, t, alive, &nl);
        }
        if (ok) { safe++; if (q->all) return GS_LOSS; }
    }
    if (present == 0) return GS_WIN;
    if (!q->all && safe == n) return GS_LOSS;
    return GS_UNKNOWN;
}

gs_result gs_status(const go_board *b, const gs_query *q)
{
    return q->method == GS_ID ? status_id(b, q) : status_dfpn(NULL, b, q, 1);
}

static uint32_t add_sat(uint32_t a, uint32_t b) { uint64_t s = (uint64_t)a + b; return s >= INF ? INF : (uint32_t)s; }

static tt_entry *tt_find(gs_solver *s, uint64_t key)
{
    tt_entry *e = &s->table[(key & s->mask) & ~(uint64_t)(BUCKET - 1)];
    for (int i = 0; i < BUCKET; i++) if (e[i].key == key) return &e[i];
    return NULL;
}

static void tt_store(gs_solver *s, uint64_t key, uint32_t phi, uint32_t delta, uint32_t work, int depth, int best)
{
    tt_entry *e = &s->table[(key & s->mask) & ~(uint64_t)(BUCKET - 1)], *victim = NULL;
    for (int i = 0; i < BUCKET; i++) if (e[i].key == key) { victim = &e[i]; break; }
    if (!victim) {
        /* replace the least work, unproven entries before proven ones */
        for (int i = 0; i < BUCKET; i++) {
            int proven = e[i].phi == 0 || e[i].delta == 0;
            if (!victim) { victim = &e[i]; continue; }
            int vproven = victim->phi == 0 || victim->delta == 0;
            if ((vproven && !proven) || (vproven == proven && e[i].work < victim->work)) victim = &e[i];
        }
    }
    victim->key = key; victim->phi = phi; victim->delta = delta; victim->work = work;
    victim->depth = (uint16_t)(depth > 65535 ? 65535 : depth);
    victim->result = 0;
    victim->best = (int16_t)(phi == 0 ? best : -1);
}

/* (phi, delta, depth) of a child for the child's side to move */
static void child_values(gs_solver *s, const child *c, uint32_t *phi, uint32_t *delta, int *depth)
{
    *depth = c->tdepth;
    if (c->term == GS_WIN) { *phi = 0; *delta = INF; return; }
    if (c->term == GS_LOSS) { *phi = INF; *delta = 0; return; }
    tt_entry *e = tt_find(s, c->key);
    if (e) { *phi = e->phi; *delta = e->delta; *depth = e->depth; }
    else { *phi = c->phi0; *delta = c->delta0; }
}

/* the attacker to move captures a target at once: a target chain in atari
 * whose liberty is an allowed point where the capture is legal and not a ko
 * the attacker may not take (with several targets and `all`, only a single
 * target counts). Such a node is won without searching its children */
static int capture_now(const go_board *b, const gs_query *q)
{
    int defender = GO_OTHER(q->attacker), n = ntargets(q);
    if (b->to_move != q->attacker || (q->all && n > 1)) return 0;
    for (int i = 0; i < n; i++) {
        int t = target_at(q, i), libs[GO_AREA];
        if (b->color[t] != defender || libs_of(b, t, libs) != 1) continue;
        int lib = libs[0];
        if (!q->allowed[lib]) continue;
        if (go_check(b, q->attacker, lib) != GO_OK) continue;
        go_board c = *b;
        go_play(&c, q->attacker, lib);
        if (q->ko_winner && c.ko && q->attacker != q->ko_winner) continue;
        if (c.color[t] == GO_EMPTY) return 1;
    }
    return 0;
}

/* the children of b: moves by the side to move, target liberties first, pass last */
static int expand(gs_solver *s, const go_board *b, const gs_query *q, child *out, int room)
{
    int me = b->to_move, defender = GO_OTHER(q->attacker), n = 0, area = b->stride * b->stride;
    uint8_t first[GO_AREA];
    memset(first, 0, (size_t)area);
    int moves[GO_AREA + 1], nm = 0, libs[GO_AREA];
    for (int i = 0; i < ntargets(q); i++) {
        int t = target_at(q, i);
        if (b->color[t] != defender) continue;
        int nl = libs_of(b, t, libs);
        for (int k = 0; k < nl; k++) if (q->allowed[libs[k]] && !first[libs[k]]) { first[libs[k]] = 1; moves[nm++] = libs[k]; }
    }
    uint8_t close[GO_AREA];
    if (q->near > 0) {
        /* within q->near steps of a defender stone: the wavefront from the defender's stones */
        int wave[GO_AREA], nw = 0, next = 0;
        uint8_t dist[GO_AREA];
        memset(dist, 0xff, (size_t)area);
        for (int p = 0; p < area; p++) if (b->color[p] == defender) { dist[p] = 0; wave[nw++] = p; }
        while (next < nw) {
            int p = wave[next++];
            if (dist[p] >= q->near) continue;
            int nb[4] = { p - 1, p + 1, p - b->stride, p + b->stride };
            for (int k = 0; k < 4; k++)
                if (b->color[nb[k]] != GO_EDGE && dist[nb[k]] == 0xff) { dist[nb[k]] = (uint8_t)(dist[p] + 1); wave[nw++] = nb[k]; }
        }
        for (int p = 0; p < area; p++) close[p] = dist[p] != 0xff;
    } else memset(close, 1, (size_t)area);
    if (s->nanchors && q->ko_winner) {
        /* the targets' zones (see zone_dead) are closed for good: a move
         * outside them changes nothing inside, so it is worth no more than a
         * pass for the defender and nothing for the attacker (the defender
         * would pass in reply). Kos are decided by ko_winner, so no move is
         * needed as a ko threat */
        uint8_t seen[GO_AREA], anchored[GO_AREA];
        int stack[GO_AREA], ns = 0;
        memset(seen, 0, (size_t)area);
        mark_anchored(s, b, q, anchored);
        for (int i = 0; i < ntargets(q); i++) {
            int t = target_at(q, i);
            if (b->color[t] == defender && !seen[t]) { seen[t] = 1; stack[ns++] = t; }
        }
        while (ns) {
            int p = stack[--ns];
            int nb[4] = { p - 1, p + 1, p - b->stride, p + b->stride };
            for (int k = 0; k < 4; k++) {
                int x = nb[k], c = b->color[x];
                if (c == GO_EDGE || seen[x] || (c == q->attacker && anchored[b->head[x]])) continue;
                seen[x] = 1; stack[ns++] = x;
            }
        }
        for (int p = 0; p < area; p++) close[p] &= seen[p];
    }
    for (int p = 0; p < area; p++) if (q->allowed[p] && b->color[p] == GO_EMPTY && !first[p] && close[p]) moves[nm++] = p;
    /* the attacker's pass never wins: the defender passes back and lives */
    if (me == defender) moves[nm++] = GO_PASS;
    for (int i = 0; i < nm && n < room; i++) {
        int m = moves[i];
        go_board c = *b;
        child *ch = &out[n];
        ch->move = m; ch->term = 0; ch->tdepth = 0; ch->phi0 = ch->delta0 = 1;
        if (m == GO_PASS) {
            go_play(&c, me, GO_PASS);
            if (b->passes > 0) {
                /* two passes: the target lives; the child's mover is the other side */
                ch->term = c.to_move == defender ? GS_WIN : GS_LOSS;
                ch->key = 0; n++;
                continue;
            }
        } else {
            if (go_check(b, me, m) != GO_OK) continue;
            go_play(&c, me, m);
            if (q->ko_winner && c.ko && me != q->ko_winner) continue;   /* no ko threats */
            if (s->nanchors && c.captured[me] != b->captured[me]) {
                int lost = 0;
                for (int k = 0; k < s->nanchors && !lost; k++) lost = c.color[s->anchors[k]] != q->attacker;
                if (lost) continue;                                     /* the outside is safe */
            }
        }
        ch->key = node_key(s, &c);
        if (on_path(s, ch->key)) continue;
        gs_result st = status_dfpn(s, &c, q, 0);
        if (st == GS_UNKNOWN && capture_now(&c, q)) { st = GS_WIN; ch->tdepth = 1; }   /* one ply: the capture */
        if (st != GS_UNKNOWN) ch->term = (st == GS_WIN) == (c.to_move == q->attacker) ? GS_WIN : GS_LOSS;
        else {
            /* first estimate: the fewer liberties the main target has, the nearer the attacker's proof */
            int t = target_at(q, 0);
            int lb[GO_AREA];
            uint32_t l = c.color[t] == defender ? (uint32_t)libs_of(&c, t, lb) : 1;
            uint32_t e = l > 1 ? l - 1 : 1;
            if (c.to_move == q->attacker) { ch->phi0 = e; ch->delta0 = 1; }
            else { ch->phi0 = 1; ch->delta0 = e; }
        }
        n++;
    }
    return n;
}

/* ---- simulation (Kawano): a sibling's proof replayed ----
 * When a move of the side to move is refuted, its siblings are often refuted
 * the same way. sim_win proves that the side to move on t wins by following
 * the proof of the source position src (the same side to move, the sibling
 * already proven): on its own turns it plays the move the source's table
 * entry names, on the other side's turns it answers every move t allows (each
 * from the source child reached by the same move; the source's root move,
 * swap_from, occupied in the source, maps to the sibling's, swap_to). Every
 * node is checked on t itself (its own moves, terminal tests and table), so
 * a simulation proves only what search would: when it succeeds each node of
 * t's proof is stored; when the source's proof does not fit, it fails at
 * once and nothing else is stored. Each simulated node counts in the budget. */
static int sim_lose(gs_solver *s, const go_board *t, uint64_t tkey, const go_board *src, const gs_query *q, int *depth);

/* a terminal test of t as mid makes it: 1 decided (*win for the side to move, *plies) */
static int sim_terminal(const gs_solver *s, const go_board *t, const gs_query *q, int *win, int *plies)
{
    gs_result st = status_dfpn(s, t, q, t->to_move == q->attacker ? 1 : 2);
    *plies = 0;
    if (st == GS_UNKNOWN && capture_now(t, q)) { st = GS_WIN; *plies = 1; }
    if (st == GS_UNKNOWN) return 0;
    *win = (st == GS_WIN) == (t->to_move == q->attacker);
    return 1;
}

/* src + m, or src + swap_to when m is the source's root move (occupied there); 0 when neither is legal */
static int sim_source_child(const gs_solver *s, const go_board *src, int m, go_board *out)
{
    int me = src->to_move;
    if (m != GO_PASS && go_check(src, me, m) != GO_OK) {
        if (m != s->swap_from || go_check(src, me, s->swap_to) != GO_OK) return 0;
        m = s->swap_to;
    }
    *out = *src;
    go_play(out, me, m);
    return 1;
}

/* the start of a simulated node: 1 when already proven as wanted (want_win:
 * the side to move wins), 0 when proven otherwise or out of room, -1 to be
 * simulated */
static int sim_known(gs_solver *s, const go_board *t, uint64_t tkey, const gs_query *q, int want_win, int *depth)
{
    if (s->nodes >= s->budget) return 0;
    s->nodes++;
    tt_entry *e = tt_find(s, tkey);
    if (e && (e->phi == 0 || e->delta == 0)) { *depth = e->depth; return (e->phi == 0) == want_win; }
    int win, plies;
    if (sim_terminal(s, t, q, &win, &plies)) {
        tt_store(s, tkey, win ? 0 : INF, win ? INF : 0, 1, plies, -1);
        *depth = plies;
        return win == want_win;
    }
    if (s->npath >= MAX_PATH - 1 || STACK_MOVES - s->nstack < GO_AREA + 1) return 0;
    return -1;
}

static int sim_win(gs_solver *s, const go_board *t, uint64_t tkey, const go_board *src, const gs_query *q, int *depth)
{
    int known = sim_known(s, t, tkey, q, 1, depth);
    if (known >= 0) return known;
    tt_entry *es = tt_find(s, node_key(s, src));
    if (!es || es->phi != 0 || es->best < 0) return 0;
    int m = es->best;
    child *ch = &s->stack[s->nstack];
    int n = expand(s, t, q, ch, STACK_MOVES - s->nstack), i = 0;
    while (i < n && ch[i].move != m) i++;
    if (i == n || ch[i].term == GS_WIN) return 0;
    int ok = 0, d = ch[i].tdepth;
    long start = s->nodes;
    if (ch[i].term == GS_LOSS) ok = 1;
    else {
        int ply = s->npath;
        go_board *tc = &s->sim_t[ply], *sc = &s->sim_s[ply];
        if (!sim_source_child(s, src, m, sc)) return 0;
        *tc = *t;
        go_play(tc, t->to_move, m);
        s->nstack += n;
        s->path[s->npath++] = tkey;
        ok = sim_lose(s, tc, ch[i].key, sc, q, &d);
        s->npath--;
        s->nstack -= n;
    }
    if (!ok) return 0;
    *depth = d + 1;
    tt_store(s, tkey, 0, INF, (uint32_t)(s->nodes - start + 1), d + 1, m);
    return 1;
}

static int sim_lose(gs_solver *s, const go_board *t, uint64_t tkey, const go_board *src, const gs_query *q, int *depth)
{
    int known = sim_known(s, t, tkey, q, 0, depth);
    if (known >= 0) return known;
    child *ch = &s->stack[s->nstack];
    int n = expand(s, t, q, ch, STACK_MOVES - s->nstack), ok = 1, dmax = 0, ply = s->npath;
    long start = s->nodes;
    s->nstack += n;
    s->path[s->npath++] = tkey;
    for (int i = 0; i < n && ok; i++) {
        int d = ch[i].tdepth;
        if (ch[i].term == GS_LOSS) { ok = 0; break; }
        if (ch[i].term == 0) {
            go_board *tc = &s->sim_t[ply], *sc = &s->sim_s[ply];
            if (!sim_source_child(s, src, ch[i].move, sc)) { ok = 0; break; }
            *tc = *t;
            go_play(tc, t->to_move, ch[i].move);
            ok = sim_win(s, tc, ch[i].key, sc, q, &d);
        }
        if (d > dmax) dmax = d;
    }
    s->npath--;
    s->nstack -= n;
    if (!ok) return 0;
    *depth = dmax + 1;
    tt_store(s, tkey, INF, 0, (uint32_t)(s->nodes - start + 1), dmax + 1, -1);
    return 1;
}

/* after the child `best` of b was proven a win for its side to move (b's
 * move refuted): the unproven siblings simulated from its proof */
static void simulate_siblings(gs_solver *s, const go_board *b, const gs_query *q, child *ch, int n, int best)
{
    go_board src = *b, sib;
    go_play(&src, b->to_move, ch[best].move);
    for (int i = 0; i < n && !s->aborted && s->nodes < s->budget; i++) {
        if (i == best || ch[i].term) continue;
        uint32_t cp, cd;
        int cdep;
        child_values(s, &ch[i], &cp, &cd, &cdep);
        if (cp == 0 || cd == 0) continue;
        sib = *b;
        go_play(&sib, b->to_move, ch[i].move);
        s->swap_from = ch[best].move;
        s->swap_to = ch[i].move;
        if (ch[i].move == GO_PASS || ch[best].move == GO_PASS) s->swap_from = s->swap_to = -1;
        int d;
        if (sim_win(s, &sib, ch[i].key, &src, q, &d)) s->simulated++;
    }
}

/* multiple-iterative deepening on b until phi >= thphi or delta >= thdelta */
static void mid(gs_solver *s, const go_board *b, const gs_query *q, uint64_t key, uint32_t thphi, uint32_t thdelta)
{
    long start = s->nodes;
    if (++s->nodes > s->budget) { s->aborted = 1; return; }
    /* the full test (Benson, the zone) where the defender has just moved: it
     * is a shortcut, and those are the positions where life appears */
    gs_result st = status_dfpn(s, b, q, b->to_move == q->attacker ? 1 : 2);
    int plies = 0;
    if (st == GS_UNKNOWN && capture_now(b, q)) { st = GS_WIN; plies = 1; }
    if (st != GS_UNKNOWN) {
        int win = (st == GS_WIN) == (b->to_move == q->attacker);
        tt_store(s, key, win ? 0 : INF, win ? INF : 0, 1, plies, -1);
        return;
    }
    /* no room for every move of this node: never search it with some left out */
    if (s->npath >= MAX_PATH - 1 || STACK_MOVES - s->nstack < GO_AREA + 1) { s->aborted = 1; return; }
    child *ch = &s->stack[s->nstack];
    int n = expand(s, b, q, ch, STACK_MOVES - s->nstack);
    s->nstack += n;
    s->path[s->npath++] = key;
    uint32_t phi = INF, delta = 0;
    int depth = 0, winner = -1;
    for (;;) {
        /* phi = min delta of the children, delta = sum of their phi */
        int best = -1, dmax = 0, dmin = 1 << 30;
        uint32_t d1 = INF, d2 = INF, phi1 = INF;
        phi = INF; delta = 0;
        for (int i = 0; i < n; i++) {
            uint32_t cp, cd;
            int cdep;
            child_values(s, &ch[i], &cp, &cd, &cdep);
            delta = add_sat(delta, cp);
            if (cd < d1) { d2 = d1; d1 = cd; best = i; phi1 = cp; }
            else if (cd < d2) d2 = cd;
            if (cd == 0 && cdep < dmin) { dmin = cdep; winner = ch[i].move; }
            if (cdep > dmax) dmax = cdep;
        }
        phi = d1;
        if (phi == 0) depth = dmin + 1;
        else if (delta == 0) depth = dmax + 1;
        if (phi >= thphi || delta >= thdelta || best < 0) break;
        uint64_t cth = (uint64_t)thdelta + phi1 - delta;   /* thdelta - (delta - phi1) */
        uint32_t cthphi = cth >= INF ? INF : (uint32_t)cth;
        /* the 1+epsilon trick (Pawlewicz and Lew): stay in the best child until
         * its delta passes the second best by a quarter, not by one, which
         * saves most of the switching between siblings of close values */
        uint32_t d2e = add_sat(add_sat(d2, d2 / 4), 1);
        uint32_t cthdelta = thphi < d2e ? thphi : d2e;
        go_board *c = &s->boards[s->npath - 1];
        *c = *b;
        go_play(c, c->to_move, ch[best].move);
        mid(s, c, q, ch[best].key, cthphi, cthdelta);
        if (s->aborted) break;
        if (q->simulate && n > 1) {
            uint32_t cp, cd;
            int cdep;
            child_values(s, &ch[best], &cp, &cd, &cdep);
            if (cp == 0) simulate_siblings(s, b, q, ch, n, best);
        }
    }
    s->npath--;
    s->nstack -= n;
    if (s->aborted) return;
    long work = s->nodes - start;
    tt_store(s, key, phi, delta, work > 0xffffffffL ? 0xffffffffu : (uint32_t)work, depth, winner);
}

static gs_result solve_dfpn(gs_solver *s, const go_board *b, const gs_query *q, int *depth)
{
    uint64_t key = node_key(s, b);
    s->nstack = 0;
    s->nanchors = 0;
    if (q->outside_safe) {
        int area = b->stride * b->stride;
        for (int p = 0; p < area; p++)
            if (b->color[p] == q->attacker && !q->allowed[p]) s->anchors[s->nanchors++] = p;
    }
    mid(s, b, q, key, INF, INF);
    if (s->aborted) return GS_UNKNOWN;
    tt_entry *e = tt_find(s, key);
    if (!e) return GS_UNKNOWN;
    if (depth) *depth = e->depth;
    if (e->phi == 0) return GS_WIN;
    if (e->delta == 0) return GS_LOSS;
    return GS_UNKNOWN;
}

gs_result gs_solve(gs_solver *s, const go_board *b, const gs_query *q, int *depth)
{
    s->nodes = 0;
    s->budget = q->max_nodes > 0 ? q->max_nodes : 1000000;
    s->aborted = 0;
    s->npath = 0;
    s->simulated = 0;
    return q->method == GS_ID ? solve_id(s, b, q, depth) : solve_dfpn(s, b, q, depth);
}
