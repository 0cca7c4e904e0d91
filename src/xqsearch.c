/* xqsearch.c — see xqsearch.h. */
#include "xqsearch.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define INF 32000
#define MATE_BOUND (XQS_MATE - 1000)

enum { TT_EXACT = 1, TT_LOWER = 2, TT_UPPER = 3 };

typedef struct {
    uint64_t key;
    int16_t score;
    int8_t depth;
    uint8_t flag;
    xq_move move;
    uint16_t gen;           /* the search that wrote it: older entries count as empty */
} tt_entry;

typedef struct {
    uint64_t key;
    int32_t score;
} eval_entry;

#define EVAL_CACHE (1 << 16)

typedef struct {
    uint64_t key;
    int8_t mate_within;     /* smallest r proven to mate, or 127 */
    int8_t no_mate_upto;    /* largest r proven not to mate, or -1 */
    uint8_t checks_only;
    uint8_t pad;
    xq_move move;           /* the move that proved mate_within */
    uint16_t gen;           /* the search that wrote it: older entries count as empty */
} mate_entry;

struct xqs_ctx {
    tt_entry *tt;
    size_t tt_mask;
    mate_entry *mt;
    size_t mt_mask;
    xq_move killers[XQS_MAX_PLY + 8][2];
    int history[256][256];
    uint64_t nodes, node_limit;
    double deadline;
    int stopped;
    uint64_t path[XQS_MAX_PLY + XQ_MAX_HISTORY + 8];       /* key before move i */
    uint8_t path_check[XQS_MAX_PLY + XQ_MAX_HISTORY + 8];  /* move i gave check */
    int npath;
    int null_floor;         /* repetitions are not looked for across a null move */
    uint16_t gen;           /* this search's generation (tables are cleared only when it wraps) */
    xq_move pv[XQS_MAX_PLY + 8][XQS_MAX_PLY + 8];
    int pv_len[XQS_MAX_PLY + 8];
    eval_entry evals[EVAL_CACHE];   /* evaluations by key: a pure function, kept across searches */
};

static const int VALUE[8] = {0, 0, 120, 120, 400, 900, 450, 100};

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

xqs_ctx *xqs_new(int tt_mb)
{
    xqs_ctx *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    size_t n = 1;
    if (tt_mb < 1) tt_mb = 1;
    while (n * 2 * sizeof(tt_entry) <= (size_t)tt_mb << 20) n *= 2;
    c->tt = calloc(n, sizeof(tt_entry));
    c->tt_mask = n - 1;
    size_t m = 1;
    while (m * 2 * sizeof(mate_entry) <= (size_t)tt_mb << 20) m *= 2;
    c->mt = calloc(m, sizeof(mate_entry));
    c->mt_mask = m - 1;
    if (!c->tt || !c->mt) { xqs_free(c); return NULL; }
    return c;
}

void xqs_free(xqs_ctx *c)
{
    if (!c) return;
    free(c->tt);
    free(c->mt);
    free(c);
}

/* A new search: entries of earlier searches are ignored (each search sees
 * empty tables, so results never depend on what was searched before), without
 * clearing megabytes each call: only when the generation counter wraps. */
static void reset(xqs_ctx *c, const xq_board *b)
{
    if (++c->gen == 0) {
        memset(c->tt, 0, (c->tt_mask + 1) * sizeof(tt_entry));
        memset(c->mt, 0, (c->mt_mask + 1) * sizeof(mate_entry));
        c->gen = 1;
    }
    c->null_floor = 0;
    memset(c->killers, 0, sizeof c->killers);
    memset(c->history, 0, sizeof c->history);
    c->nodes = 0;
    c->stopped = 0;
    /* the game so far, for repetition inside the search */
    c->npath = 0;
    for (int i = 0; i < b->nhist; i++) {
        c->path[c->npath] = b->hist_key[i];
        c->path_check[c->npath++] = b->hist_check[i];
    }
}

static int out_of_budget(xqs_ctx *c)
{
    if (c->stopped) return 1;
    if (c->node_limit && c->nodes >= c->node_limit) c->stopped = 1;
    else if (c->deadline > 0 && (c->nodes & 1023) == 0 && now_ms() >= c->deadline) c->stopped = 1;
    return c->stopped;
}

/* ---- evaluation ---- */

static int piece_bonus(int type, int color, int sq)
{
    int f = XQ_FILE(sq), r = XQ_RANK(sq);
    int adv = color == XQ_RED ? r : 9 - r;          /* ranks advanced from its own back rank */
    int centre = 4 - (f > 4 ? f - 4 : 4 - f);       /* 0 at the edge, 4 on the middle file */
    switch (type) {
    case XQ_PAWN:
        if (adv <= 4) return 0;
        /* crossed: worth about double, most near the palace, little on the last rank */
        return 90 + (adv == 9 ? -40 : adv * 8) + centre * 6;
    case XQ_HORSE: return centre * 6 + (adv >= 5 && adv <= 8 ? 20 : 0);
    case XQ_CANNON: return centre * 3;
    case XQ_ROOK: return centre * 2 + (adv >= 5 ? 10 : 0);
    default: return 0;
    }
}

/* material plus placement of each piece on each square, filled once */
static int16_t psq[16][256];
static int psq_ready;

static void fill_psq(void)
{
    for (int p = 0; p < 16; p++) {
        int t = XQ_TYPE(p), c = XQ_COLOR(p);
        if (t == XQ_EMPTY) continue;
        for (int r = 0; r < 10; r++)
            for (int f = 0; f < 9; f++)
                psq[p][XQ_SQ(f, r)] = (int16_t)(VALUE[t] + piece_bonus(t, c, XQ_SQ(f, r)));
    }
    psq_ready = 1;
}

int xqs_evaluate(const xq_board *b)
{
    if (!psq_ready) fill_psq();
    int score[2] = {0, 0};
    for (int r = 0; r < 10; r++)
        for (int s = XQ_SQ(0, r), e = s + 9; s < e; s++) {
            uint8_t p = b->sq[s];
            if (p != XQ_EMPTY) score[XQ_COLOR(p)] += psq[p][s];
        }
    /* mobility: pseudo-legal moves of each side */
    int side = b->side;
    return score[side] - score[!side] + 3 * xq_mobility(b) + 10;   /* +10: the move */
}

/* xqs_evaluate through the cache (the same number, computed once per position) */
static int evaluate(xqs_ctx *c, const xq_board *b)
{
    eval_entry *e = &c->evals[b->key & (EVAL_CACHE - 1)];
    if (e->key != b->key) {
        e->key = b->key;
        e->score = xqs_evaluate(b);
    }
    return e->score;
}

/* ---- move ordering ---- */

static int attacked_after(xq_board *b, xq_move m, xq_undo *u)
{
    int us = b->side;
    xq_do_move(b, m, u);
    if (xq_side_in_check(b, us)) { xq_undo_move(b, u); return 1; }
    return 0;
}

/* Ordering keys: the hash move, captures by most valuable victim and least
 * valuable attacker, the two killers, then history. */
static void order(xqs_ctx *c, const xq_board *b, const xq_move *moves, int n, xq_move hash, int ply, int *keys)
{
    for (int i = 0; i < n; i++) {
        xq_move m = moves[i];
        uint8_t victim = b->sq[XQ_TO(m)], attacker = b->sq[XQ_FROM(m)];
        int k;
        if (m == hash) k = 1 << 30;
        else if (victim) k = (1 << 28) + VALUE[XQ_TYPE(victim)] * 16 - VALUE[XQ_TYPE(attacker)] / 16;
        else if (ply < XQS_MAX_PLY && m == c->killers[ply][0]) k = (1 << 27) + 1;
        else if (ply < XQS_MAX_PLY && m == c->killers[ply][1]) k = 1 << 27;
        else k = c->history[XQ_FROM(m)][XQ_TO(m)];
        keys[i] = k;
    }
}

/* The next move to try: the highest key not yet taken, the earliest among
 * equal keys (so the order is a stable sort, and deterministic), or -1. Picking
 * lazily costs nothing for the moves a cut-off never reaches. */
static int pick(int *keys, int n)
{
    int best = -1, bk = -1;
    for (int i = 0; i < n; i++)
        if (keys[i] > bk) { bk = keys[i]; best = i; }
    if (best >= 0) keys[best] = -1;
    return best;
}

/* ---- alpha-beta ---- */

#define NULL_R 2          /* null-move depth reduction (one more from NULL_DEEP on) */
#define NULL_DEEP 6
#define MAX_EXTENSIONS 16 /* check extensions on one path */
#define DELTA 100         /* quiescence: a capture that cannot lift the score this near alpha is skipped */
#define FUTILITY 100      /* per ply of depth left, at depth <= 2 (quiet moves) and <= 3 (the node) */
#define LMR_DEEP 5        /* from this depth on, quiet moves after the 8th are reduced one ply more */

/* does color have a rook, or a horse or cannon, to move instead of passing? */
static int has_attackers(const xq_board *b, int color)
{
    for (int r = 0; r < 10; r++)
        for (int s = XQ_SQ(0, r), e = s + 9; s < e; s++) {
            uint8_t p = b->sq[s];
            if (p == XQ_EMPTY || XQ_COLOR(p) != color) continue;
            int t = XQ_TYPE(p);
            if (t == XQ_ROOK || t == XQ_HORSE || t == XQ_CANNON) return 1;
        }
    return 0;
}

/* The current position (key, side to move about to move) occurred before on
 * this path or in the game: the referee's rule (xq_repetition_of) over the
 * moves since its first occurrence. A side that gave check with every one of
 * its moves while the other did not loses; any other repetition is a draw.
 * Returns 0 when the position is new, else 1 with *score set for the side to
 * move (a loss scores like being mated here, so it is never chosen over a
 * longer resistance or a draw). */
static int repeated(const xqs_ctx *c, uint64_t key, int ply, int *score)
{
    int first = -1;
    for (int i = c->npath - 2; i >= c->null_floor; i -= 2)
        if (c->path[i] == key) first = i;
    if (first < 0) return 0;
    /* moves first, first+2, ... were the side to move's; the others its opponent's */
    int us_all = 1, them_all = 1;
    for (int i = first; i < c->npath; i++) {
        if ((i - first) % 2 == 0) us_all &= c->path_check[i];
        else them_all &= c->path_check[i];
    }
    if (us_all && !them_all) *score = -XQS_MATE + ply;
    else if (them_all && !us_all) *score = XQS_MATE - ply;
    else *score = 0;
    return 1;
}

static int to_tt(int score, int ply)
{
    if (score > MATE_BOUND) return score + ply;
    if (score < -MATE_BOUND) return score - ply;
    return score;
}

static int from_tt(int score, int ply)
{
    if (score > MATE_BOUND) return score - ply;
    if (score < -MATE_BOUND) return score + ply;
    return score;
}

/* in_check: the side to move is in check (the caller knows it already) */
static int qsearch(xqs_ctx *c, xq_board *b, int alpha, int beta, int ply, int in_check)
{
    c->nodes++;
    if (out_of_budget(c)) return 0;
    c->pv_len[ply] = 0;
    if (ply >= XQS_MAX_PLY) return evaluate(c, b);
    int stand = 0;
    if (!in_check) {
        stand = evaluate(c, b);
        if (stand >= beta) return stand;
        if (stand > alpha) alpha = stand;
    }
    xq_move moves[XQ_MAX_MOVES];
    int keys[XQ_MAX_MOVES];
    /* in check every evasion, else only captures */
    int n = in_check ? xq_gen_pseudo(b, moves) : xq_gen_captures(b, moves), legal = 0;
    order(c, b, moves, n, 0, ply, keys);
    for (int i; (i = pick(keys, n)) >= 0;) {
        if (!in_check && stand + psq[b->sq[XQ_TO(moves[i])]][XQ_TO(moves[i])] + DELTA <= alpha) continue;
        xq_undo u;
        if (attacked_after(b, moves[i], &u)) continue;
        legal++;
        int s = -qsearch(c, b, -beta, -alpha, ply + 1, xq_in_check(b));
        xq_undo_move(b, &u);
        if (c->stopped) return 0;
        if (s > alpha) {
            alpha = s;
            if (s >= beta) return s;
        }
    }
    if (in_check && legal == 0) return -XQS_MATE + ply;
    return alpha;
}

static int search(xqs_ctx *c, xq_board *b, int depth, int alpha, int beta, int ply, int extensions, int in_check)
{
    c->pv_len[ply] = 0;
    int rep;
    if (ply > 0 && repeated(c, b->key, ply, &rep)) return rep;
    /* mate distance pruning */
    if (alpha < -XQS_MATE + ply) alpha = -XQS_MATE + ply;
    if (beta > XQS_MATE - ply - 1) beta = XQS_MATE - ply - 1;
    if (alpha >= beta) return alpha;
    if (depth <= 0 || ply >= XQS_MAX_PLY) return qsearch(c, b, alpha, beta, ply, in_check);
    c->nodes++;
    if (out_of_budget(c)) return 0;

    tt_entry *e = &c->tt[b->key & c->tt_mask];
    xq_move hash = 0;
    if (e->key == b->key && e->gen == c->gen) {
        hash = e->move;
        if (ply > 0 && e->depth >= depth) {
            int s = from_tt(e->score, ply);
            if (e->flag == TT_EXACT || (e->flag == TT_LOWER && s >= beta) || (e->flag == TT_UPPER && s <= alpha))
                return s;
        }
    }
    int pv_node = beta - alpha > 1;
    int static_eval = in_check ? -INF : evaluate(c, b);
    /* reverse futility: far enough above beta near the leaves, a move will not fall below it */
    if (!pv_node && !in_check && depth <= 3 && ply > 0 && beta < MATE_BOUND && beta > -MATE_BOUND
        && static_eval - FUTILITY * depth >= beta)
        return static_eval;
    /* futility: far enough below alpha near the leaves, quiet moves that do not check are skipped */
    int futile = !pv_node && !in_check && depth <= 2 && alpha < MATE_BOUND && alpha > -MATE_BOUND
        && static_eval + FUTILITY * depth <= alpha;
    /* null move: if passing still holds beta, a real move will too. Not in
     * check, not next to a mate score, not twice in a row, and only with
     * attacking pieces left (endgames of generals, advisors, elephants and
     * soldiers are full of zugzwang) */
    if (!pv_node && !in_check && depth >= 3 && ply > 0 && c->null_floor < c->npath
        && beta < MATE_BOUND && beta > -MATE_BOUND && has_attackers(b, b->side)) {
        int saved_floor = c->null_floor;
        c->path[c->npath] = b->key;
        c->path_check[c->npath] = 0;
        c->npath++;
        c->null_floor = c->npath;
        xq_do_null(b);
        int s = -search(c, b, depth - 1 - NULL_R - (depth >= NULL_DEEP), -beta, -beta + 1, ply + 1, extensions, 0);
        xq_undo_null(b);
        c->npath--;
        c->null_floor = saved_floor;
        if (c->stopped) return 0;
        if (s >= beta) return s >= MATE_BOUND ? beta : s;
    }
    xq_move moves[XQ_MAX_MOVES];
    int keys[XQ_MAX_MOVES];
    int n = xq_gen_pseudo(b, moves);
    order(c, b, moves, n, hash, ply, keys);
    int best = -INF, legal = 0, alpha0 = alpha;
    xq_move best_move = 0;
    c->path[c->npath++] = b->key;
    for (int i; (i = pick(keys, n)) >= 0;) {
        xq_move m = moves[i];
        int quiet = !b->sq[XQ_TO(m)] && m != hash && !(ply < XQS_MAX_PLY && (m == c->killers[ply][0] || m == c->killers[ply][1]));
        xq_undo u;
        if (attacked_after(b, m, &u)) continue;
        __builtin_prefetch(&c->tt[b->key & c->tt_mask]);
        legal++;
        int gives_check = xq_in_check(b);
        if (futile && quiet && !gives_check && legal > 1) {
            xq_undo_move(b, &u);
            if (static_eval > best) best = static_eval;
            continue;
        }
        c->path_check[c->npath - 1] = (uint8_t)gives_check;
        int ext = gives_check && extensions < MAX_EXTENSIONS ? 1 : 0;
        int s;
        if (legal == 1) {
            s = -search(c, b, depth - 1 + ext, -beta, -alpha, ply + 1, extensions + ext, gives_check);
        } else {
            /* late quiet moves are searched shallower first; a move that
             * beats alpha there is searched again at full depth */
            int r = 0;
            if (quiet && !in_check && !gives_check && depth >= 3 && legal > 3) {
                r = legal > 8 && !pv_node ? 2 : 1;
                if (depth >= LMR_DEEP && legal > 8) r++;
                if (r > depth - 2) r = depth - 2;
            }
            s = -search(c, b, depth - 1 + ext - r, -alpha - 1, -alpha, ply + 1, extensions + ext, gives_check);
            if (r && s > alpha)
                s = -search(c, b, depth - 1 + ext, -alpha - 1, -alpha, ply + 1, extensions + ext, gives_check);
            if (s > alpha && s < beta)
                s = -search(c, b, depth - 1 + ext, -beta, -alpha, ply + 1, extensions + ext, gives_check);
        }
        xq_undo_move(b, &u);
        if (c->stopped) { c->npath--; return 0; }
        if (s > best) {
            best = s;
            best_move = m;
            if (s > alpha) {
                alpha = s;
                c->pv[ply][0] = m;
                memcpy(&c->pv[ply][1], c->pv[ply + 1], (size_t)c->pv_len[ply + 1] * sizeof(xq_move));
                c->pv_len[ply] = c->pv_len[ply + 1] + 1;
                if (s >= beta) {
                    if (!b->sq[XQ_TO(m)] && ply < XQS_MAX_PLY && c->killers[ply][0] != m) {
                        c->killers[ply][1] = c->killers[ply][0];
                        c->killers[ply][0] = m;
                    }
                    if (!b->sq[XQ_TO(m)]) c->history[XQ_FROM(m)][XQ_TO(m)] += depth * depth;
                    break;
                }
            }
        }
    }
    c->npath--;
    if (legal == 0) return -XQS_MATE + ply;    /* mated or without moves: both lose */
    e->key = b->key;
    e->score = (int16_t)to_tt(best, ply);
    e->depth = (int8_t)(depth > 127 ? 127 : depth);
    e->flag = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    e->move = best_move;
    e->gen = c->gen;
    return best;
}

void xqs_search(xqs_ctx *c, xq_board *b, const xqs_limits *lim, xqs_result *r)
{
    reset(c, b);
    memset(r, 0, sizeof *r);
    c->node_limit = lim->nodes;
    c->deadline = lim->time_ms > 0 ? now_ms() + lim->time_ms : 0;
    int max_depth = lim->depth > 0 ? lim->depth : 64;
    if (max_depth > XQS_MAX_PLY - 8) max_depth = XQS_MAX_PLY - 8;
    xq_move legal[XQ_MAX_MOVES];
    if (xq_gen_moves(b, legal) == 0) {
        r->score = -XQS_MATE;
        r->mate = -0;
        return;
    }
    r->best = legal[0];
    for (int d = 1; d <= max_depth; d++) {
        int s = search(c, b, d, -INF, INF, 0, 0, xq_in_check(b));
        if (c->stopped) { r->stopped = 1; break; }
        r->score = s;
        r->depth = d;
        r->pv_len = c->pv_len[0];
        memcpy(r->pv, c->pv[0], (size_t)r->pv_len * sizeof(xq_move));
        if (r->pv_len > 0) r->best = r->pv[0];
        if (s > MATE_BOUND && XQS_MATE - s <= d) break;     /* shortest mate proven */
        if (s < -MATE_BOUND && XQS_MATE + s <= d) break;    /* longest resistance proven */
    }
    if (r->score > MATE_BOUND) r->mate = XQS_MATE - r->score;
    else if (r->score < -MATE_BOUND) r->mate = -(XQS_MATE + r->score);
    r->nodes = c->nodes;
}

/* ---- forced mate ---- */

static mate_entry *mate_probe(xqs_ctx *c, uint64_t key, int checks_only)
{
    mate_entry *e = &c->mt[key & c->mt_mask];
    if (e->key != key || e->checks_only != checks_only || e->gen != c->gen) {
        e->key = key;
        e->gen = c->gen;
        e->checks_only = (uint8_t)checks_only;
        e->mate_within = 127;
        e->no_mate_upto = -1;
        e->move = 0;
    }
    return e;
}

static int mate_defender(xqs_ctx *c, xq_board *b, int r, int ply, int checks_only);

/* attacker to move: can it mate within r plies? */
static int mate_attacker(xqs_ctx *c, xq_board *b, int r, int ply, int checks_only)
{
    c->nodes++;
    c->pv_len[ply] = 0;
    if (out_of_budget(c) || r < 1 || ply >= XQS_MAX_PLY) return 0;
    mate_entry *e = mate_probe(c, b->key, checks_only);
    if (e->no_mate_upto >= r) return 0;
    if (e->mate_within <= r && e->move) {
        c->pv[ply][0] = e->move;
        c->pv_len[ply] = 1;
        return 1;
    }
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_gen_moves(b, moves);
    /* checks first, then captures, then the rest (stable) */
    xq_move sorted[XQ_MAX_MOVES];
    int ns = 0, checks[XQ_MAX_MOVES];
    for (int i = 0; i < n; i++) checks[i] = xq_gives_check(b, moves[i]);
    for (int pass = 0; pass < 3; pass++)
        for (int i = 0; i < n; i++) {
            int cap = b->sq[XQ_TO(moves[i])] != XQ_EMPTY;
            int cls = checks[i] ? 0 : cap ? 1 : 2;
            if (cls == pass && (!checks_only || checks[i])) sorted[ns++] = moves[i];
        }
    for (int i = 0; i < ns; i++) {
        xq_undo u;
        xq_do_move(b, sorted[i], &u);
        int ok = mate_defender(c, b, r - 1, ply + 1, checks_only);
        xq_undo_move(b, &u);
        if (c->stopped) return 0;
        if (ok) {
            c->pv[ply][0] = sorted[i];
            c->pv_len[ply] = 1;
            e = mate_probe(c, b->key, checks_only);
            if (r < e->mate_within) { e->mate_within = (int8_t)r; e->move = sorted[i]; }
            return 1;
        }
    }
    e = mate_probe(c, b->key, checks_only);
    if (r > e->no_mate_upto) e->no_mate_upto = (int8_t)r;
    return 0;
}

/* defender to move after the attacker's move: is every reply mated within r? */
static int mate_defender(xqs_ctx *c, xq_board *b, int r, int ply, int checks_only)
{
    c->nodes++;
    c->pv_len[ply] = 0;
    if (out_of_budget(c) || ply >= XQS_MAX_PLY) return 0;
    if (r < 1) return !xq_has_legal_move(b);  /* no legal move: the defender has lost */
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_gen_moves(b, moves);
    if (n == 0) return 1;
    /* try first the replies most likely to refute: checks and captures */
    xq_move sorted[XQ_MAX_MOVES];
    int ns = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < n; i++) {
            int forcing = b->sq[XQ_TO(moves[i])] != XQ_EMPTY || xq_gives_check(b, moves[i]);
            if (forcing == !pass) sorted[ns++] = moves[i];
        }
    for (int i = 0; i < ns; i++) {
        xq_undo u;
        xq_do_move(b, sorted[i], &u);
        int ok = mate_attacker(c, b, r - 1, ply + 1, checks_only);
        xq_undo_move(b, &u);
        if (c->stopped || !ok) return 0;
    }
    return 1;
}

/* After a proof of mate within d: the line where the attacker plays the move
 * that proved it and the defender the reply that resists longest. */
static int mate_line(xqs_ctx *c, xq_board *b, int d, int checks_only, xq_move *pv)
{
    int len = 0;
    xq_undo undo[XQS_MAX_PLY];
    while (d >= 1 && len < XQS_MAX_PLY - 2) {
        if (!mate_attacker(c, b, d, 0, checks_only) || c->pv_len[0] == 0) break;
        xq_move m = c->pv[0][0];
        pv[len] = m;
        xq_do_move(b, m, &undo[len++]);
        xq_move replies[XQ_MAX_MOVES];
        int n = xq_gen_moves(b, replies);
        if (n == 0) break;
        int longest = -1, longest_d = -1;
        for (int i = 0; i < n; i++) {
            xq_undo u;
            xq_do_move(b, replies[i], &u);
            int need = -1;
            for (int rr = 1; rr <= d - 2; rr += 2)
                if (mate_attacker(c, b, rr, 0, checks_only)) { need = rr; break; }
            xq_undo_move(b, &u);
            if (need > longest_d) { longest_d = need; longest = i; }
        }
        if (longest < 0 || longest_d < 0) break;
        pv[len] = replies[longest];
        xq_do_move(b, replies[longest], &undo[len++]);
        d = longest_d;
    }
    for (int i = len - 1; i >= 0; i--) xq_undo_move(b, &undo[i]);
    return len;
}

void xqs_mate(xqs_ctx *c, xq_board *b, int max_plies, int checks_only, uint64_t node_budget,
              xqs_mate_result *r)
{
    reset(c, b);
    memset(r, 0, sizeof *r);
    c->node_limit = node_budget;
    c->deadline = 0;
    if (max_plies > XQS_MAX_PLY - 2) max_plies = XQS_MAX_PLY - 2;
    for (int d = 1; d <= max_plies; d += 2) {
        if (mate_attacker(c, b, d, 0, checks_only)) {
            r->found = 1;
            r->plies = d;
            uint64_t spent = c->nodes;
            c->node_limit = 0;                   /* the line replays proven positions */
            r->pv_len = mate_line(c, b, d, checks_only, r->pv);
            c->nodes = spent;
            break;
        }
        if (c->stopped) { r->found = -1; break; }
    }
    r->nodes = c->nodes;
}

/* ---- the fallback defender ---- */

static int defence_better(const xqs_defence *a, const xqs_defence *b)
{
    int a_safe = a->mate_plies == 0, b_safe = b->mate_plies == 0;
    if (a_safe != b_safe) return a_safe > b_safe;
    if (a->mate_plies != b->mate_plies) return a->mate_plies > b->mate_plies;
    if (a->gives_check != b->gives_check) return a->gives_check > b->gives_check;
    char x[5], y[5];
    xq_format_iccs(a->move, x);
    xq_format_iccs(b->move, y);
    return strcmp(x, y) < 0;
}

int xqs_defend(xqs_ctx *c, xq_board *b, int horizon, xqs_defence *out)
{
    xq_move moves[XQ_MAX_MOVES];
    int n = xq_gen_moves(b, moves);
    for (int i = 0; i < n; i++) {
        xq_undo u;
        out[i].move = moves[i];
        out[i].gives_check = xq_gives_check(b, moves[i]);
        xq_do_move(b, moves[i], &u);
        xqs_mate_result m;
        xqs_mate(c, b, horizon, 0, 0, &m);
        xq_undo_move(b, &u);
        out[i].mate_plies = m.found == 1 ? m.plies : 0;
    }
    for (int i = 1; i < n; i++) {
        xqs_defence d = out[i];
        int j = i - 1;
        while (j >= 0 && defence_better(&d, &out[j])) { out[j + 1] = out[j]; j--; }
        out[j + 1] = d;
    }
    return n;
}
