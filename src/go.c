/* go.c — Go rules: see go.h. Chains are circular lists of stones with a
 * representative; each representative keeps its pseudo-liberties (one per
 * stone-empty adjacency) with their sum and sum of squares, so a chain is in
 * atari exactly when plibs * lsq == lsum^2 (all pseudo-liberties are one
 * point). */
#include "go.h"

#include <string.h>

static uint64_t zobrist[3][GO_AREA];
static int zobrist_ready;

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t go_rand(go_rng *r) { return splitmix(&r->s); }

static void init_zobrist(void)
{
    uint64_t s = 0x476f2d5a6f627269ULL;   /* fixed: keys are the same in every run */
    for (int c = 0; c < 3; c++)
        for (int p = 0; p < GO_AREA; p++) zobrist[c][p] = splitmix(&s);
    zobrist_ready = 1;
}

void go_board_init(go_board *b, int size)
{
    if (!zobrist_ready) init_zobrist();
    memset(b, 0, sizeof *b);
    b->size = size;
    b->stride = size + 2;
    b->to_move = GO_BLACK;
    for (int p = 0; p < GO_AREA; p++) b->color[p] = GO_EDGE;
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++) b->color[(y + 1) * b->stride + x + 1] = GO_EMPTY;
}

int go_point(const go_board *b, int x, int y)
{
    if (x < 0 || y < 0 || x >= b->size || y >= b->size) return 0;
    return (y + 1) * b->stride + x + 1;
}
int go_x(const go_board *b, int p) { return p % b->stride - 1; }
int go_y(const go_board *b, int p) { return p / b->stride - 1; }
int go_on_board(const go_board *b, int p)
{
    return p > 0 && p < b->stride * b->stride && b->color[p] != GO_EDGE;
}

#define NB(b, p) { (p) - 1, (p) + 1, (p) - (b)->stride, (p) + (b)->stride }

static inline void add_lib(go_board *b, int h, int p)
{
    b->plibs[h]++; b->lsum[h] += (uint32_t)p; b->lsq[h] += (uint32_t)(p * p);
}
static inline void del_lib(go_board *b, int h, int p)
{
    b->plibs[h]--; b->lsum[h] -= (uint32_t)p; b->lsq[h] -= (uint32_t)(p * p);
}
static inline int atari_h(const go_board *b, int h)
{
    uint64_t n = b->plibs[h], s = b->lsum[h];
    return n > 0 && n * (uint64_t)b->lsq[h] == s * s;
}

int go_in_atari(const go_board *b, int p)
{
    return b->color[p] == GO_BLACK || b->color[p] == GO_WHITE ? atari_h(b, b->head[p]) : 0;
}

go_error go_check(const go_board *b, int color, int p)
{
    if (p == GO_PASS) return GO_OK;
    if (!go_on_board(b, p)) return GO_OFFBOARD;
    if (b->color[p] != GO_EMPTY) return GO_OCCUPIED;
    if (p == b->ko && color == b->to_move) return GO_KO;
    if (b->allow_suicide) return GO_OK;
    int nb[4] = NB(b, p);
    #pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        int q = nb[i], c = b->color[q];
        if (c == GO_EMPTY) return GO_OK;
        if (c == GO_EDGE) continue;
        int h = b->head[q];
        int in_atari = atari_h(b, h);      /* then its only liberty is p */
        if (c == color ? !in_atari : in_atari) return GO_OK;
    }
    return GO_SUICIDE;
}

/* remove a chain from the board, giving its points back as liberties; when
 * freed is not NULL its points are appended there (freed[(*nfreed)++]) */
static int remove_chain(go_board *b, int h, int *freed, int *nfreed)
{
    int n = 0, p = h, c = b->color[h];
    do {
        b->color[p] = GO_EMPTY;
        b->hash ^= zobrist[c][p];
        if (freed) freed[(*nfreed)++] = p;
        n++;
        p = b->next[p];
    } while (p != h);
    p = h;
    do {
        int nb[4] = NB(b, p);
        #pragma GCC unroll 4
        for (int i = 0; i < 4; i++) {
            int cq = b->color[nb[i]];
            if (cq == GO_BLACK || cq == GO_WHITE) add_lib(b, b->head[nb[i]], p);
        }
        p = b->next[p];
    } while (p != h);
    return n;
}

/* merge chain h2 into chain h1 */
static void merge(go_board *b, int h1, int h2)
{
    int p = h2;
    do { b->head[p] = (uint16_t)h1; p = b->next[p]; } while (p != h2);
    int t = b->next[h1];
    b->next[h1] = b->next[h2];
    b->next[h2] = (uint16_t)t;
    b->nstones[h1] += b->nstones[h2];
    b->plibs[h1] += b->plibs[h2];
    b->lsum[h1] += b->lsum[h2];
    b->lsq[h1] += b->lsq[h2];
}

/* place a stone and update chains; captures are done by the caller */
static void place(go_board *b, int color, int p)
{
    int nb[4] = NB(b, p);
    b->color[p] = (uint8_t)color;
    b->hash ^= zobrist[color][p];
    b->head[p] = (uint16_t)p;
    b->next[p] = (uint16_t)p;
    b->nstones[p] = 1;
    b->plibs[p] = 0; b->lsum[p] = 0; b->lsq[p] = 0;
    #pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        int q = nb[i], c = b->color[q];
        if (c == GO_EMPTY) add_lib(b, p, q);
        else if (c != GO_EDGE) del_lib(b, b->head[q], p);
    }
    #pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        int q = nb[i];
        if (b->color[q] == color && b->head[q] != b->head[p]) {
            int h1 = b->head[q], h2 = b->head[p];
            if (b->nstones[h1] < b->nstones[h2]) { int t = h1; h1 = h2; h2 = t; }
            merge(b, h1, h2);
        }
    }
}

static void play_legal(go_board *b, int color, int p, int *freed, int *nfreed);

go_error go_play(go_board *b, int color, int p)
{
    if (p == GO_PASS) {
        b->ko = 0;
        b->passes++;
        b->to_move = GO_OTHER(color);
        return GO_OK;
    }
    go_error e = go_check(b, color, p);
    if (e != GO_OK) return e;
    play_legal(b, color, p, NULL, NULL);
    return GO_OK;
}

/* play a move already known to be legal; the points it empties (captures, or
 * its own chain when suicide is allowed) go to freed as in remove_chain */
static void play_legal(go_board *b, int color, int p, int *freed, int *nfreed)
{
    place(b, color, p);
    int nb[4] = NB(b, p), taken = 0, last = 0, other = GO_OTHER(color);
    #pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        int q = nb[i];
        if (b->color[q] == other && b->plibs[b->head[q]] == 0) {
            last = q;
            int n = remove_chain(b, b->head[q], freed, nfreed);
            taken += n;
        }
    }
    b->captured[color] += taken;
    int h = b->head[p];
    b->ko = 0;
    if (b->plibs[h] == 0) {                      /* suicide, allowed */
        b->captured[other] += remove_chain(b, h, freed, nfreed);
    } else if (taken == 1 && b->nstones[h] == 1 && b->plibs[h] == 1) {
        b->ko = last;
    }
    b->passes = 0;
    b->to_move = other;
}

void go_setup(go_board *b, int color, int p)
{
    if (!go_on_board(b, p) || b->color[p] == color) return;
    if (b->color[p] != GO_EMPTY) {
        /* rebuild: remove this stone by re-placing every other stone */
        go_board old = *b;
        int size = b->size;
        go_board_init(b, size);
        b->to_move = old.to_move;
        b->allow_suicide = old.allow_suicide;
        b->captured[1] = old.captured[1]; b->captured[2] = old.captured[2];
        for (int q = 0; q < GO_AREA; q++)
            if (q != p && (old.color[q] == GO_BLACK || old.color[q] == GO_WHITE)) place(b, old.color[q], q);
    }
    if (color == GO_BLACK || color == GO_WHITE) place(b, color, p);
    b->ko = 0;
}

uint64_t go_key_after(const go_board *b, int color, int p)
{
    if (p == GO_PASS) return b->hash;
    go_board c = *b;
    go_play(&c, color, p);
    return c.hash;
}

int go_chain_stones(const go_board *b, int p, int *out)
{
    int c = b->color[p];
    if (c != GO_BLACK && c != GO_WHITE) return 0;
    int n = 0, h = b->head[p], q = h;
    do { out[n++] = q; q = b->next[q]; } while (q != h);
    return n;
}

int go_chain_libs(const go_board *b, int p, int *out)
{
    int c = b->color[p];
    if (c != GO_BLACK && c != GO_WHITE) return 0;
    uint8_t seen[GO_AREA];
    memset(seen, 0, sizeof seen);
    int n = 0, h = b->head[p], q = h;
    do {
        int nb[4] = NB(b, q);
        for (int i = 0; i < 4; i++)
            if (b->color[nb[i]] == GO_EMPTY && !seen[nb[i]]) { seen[nb[i]] = 1; out[n++] = nb[i]; }
        q = b->next[q];
    } while (q != h);
    /* sort for stable output */
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) { int t = out[j]; out[j] = out[j - 1]; out[j - 1] = t; }
    return n;
}

int go_chain_lib_count(const go_board *b, int p)
{
    int libs[GO_AREA];
    return go_chain_libs(b, p, libs);
}

/* p's four neighbours are color's or the edge: is p an eye? At most one enemy
 * diagonal in the middle, none on the edge. */
static inline int eye_by_diagonals(const go_board *b, int p, int color)
{
    int s = b->stride;
    int diag[4] = { p - s - 1, p - s + 1, p + s - 1, p + s + 1 };
    int enemy = 0, edge = 0, other = GO_OTHER(color);
    #pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        int c = b->color[diag[i]];
        edge |= c == GO_EDGE;
        enemy += c == other;
    }
    return enemy < (edge ? 1 : 2);
}

int go_is_eye(const go_board *b, int p, int color)
{
    if (b->color[p] != GO_EMPTY) return 0;
    int nb[4] = NB(b, p);
    for (int i = 0; i < 4; i++) {
        int c = b->color[nb[i]];
        if (c != color && c != GO_EDGE) return 0;
    }
    return eye_by_diagonals(b, p, color);
}

int go_gen_moves(const go_board *b, int color, int *out)
{
    int n = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int p = (y + 1) * b->stride + x + 1;
            if (b->color[p] == GO_EMPTY && !go_is_eye(b, p, color) && go_check(b, color, p) == GO_OK)
                out[n++] = p;
        }
    return n;
}

/* In a playout: may color (the side to move) play the empty point p, and is
 * it not one of its own eyes? The same answer as !go_is_eye && go_check ==
 * GO_OK, reading the four neighbours once: an empty neighbour settles it. */
static inline int playout_candidate(const go_board *b, int p, int color)
{
    if (p == b->ko) return 0;
    int s = b->stride, nb[4] = { p - 1, p + 1, p - s, p + s };
    int c[4] = { b->color[nb[0]], b->color[nb[1]], b->color[nb[2]], b->color[nb[3]] };
    if (c[0] == GO_EMPTY || c[1] == GO_EMPTY || c[2] == GO_EMPTY || c[3] == GO_EMPTY) return 1;
    int legal = b->allow_suicide, own_or_edge = 1;
    #pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        if (c[i] == GO_EDGE) continue;
        int in_atari = atari_h(b, b->head[nb[i]]);        /* then its only liberty is p */
        if (c[i] == color) legal |= !in_atari;
        else { legal |= in_atari; own_or_edge = 0; }
    }
    return legal && !(own_or_edge && eye_by_diagonals(b, p, color));
}

int go_playout(go_board *b, go_rng *r, int max_moves)
{
    int empty[GO_AREA], idx[GO_AREA], n = 0, played = 0;
    for (int y = 0; y < b->size; y++)
        for (int x = 0; x < b->size; x++) {
            int p = (y + 1) * b->stride + x + 1;
            if (b->color[p] == GO_EMPTY) { idx[p] = n; empty[n++] = p; }
        }
    while (played < max_moves && b->passes < 2) {
        int color = b->to_move, m = n, chosen = 0;
        /* empty[0..m) are still candidates this turn */
        while (m > 0) {
            int i = (int)(((go_rand(r) >> 32) * (uint64_t)m) >> 32);   /* uniform in [0, m) */
            int p = empty[i];
            if (playout_candidate(b, p, color)) { chosen = p; break; }
            int q = empty[m - 1];
            empty[i] = q; idx[q] = i;
            empty[m - 1] = p; idx[p] = m - 1;
            m--;
        }
        if (chosen) {
            int j = idx[chosen], q = empty[n - 1];
            empty[j] = q; idx[q] = j;
            n--;
            /* the points this move empties join the list */
            int before = n;
            play_legal(b, color, chosen, empty, &n);
            for (int k = before; k < n; k++) idx[empty[k]] = k;
        } else {
            go_play(b, color, GO_PASS);
        }
        played++;
    }
    return played;
}

int go_area_score(const go_board *b)
{
    uint8_t seen[GO_AREA];
    int stack[GO_AREA];
    memset(seen, 0, sizeof seen);
    int score = 0;
    for (int p = 0; p < b->stride * b->stride; p++) {
        int c = b->color[p];
        if (c == GO_BLACK) score++;
        else if (c == GO_WHITE) score--;
        else if (c == GO_EMPTY && !seen[p]) {
            int sp = 0, size = 0, reach = 0;
            stack[sp++] = p; seen[p] = 1;
            while (sp) {
                int q = stack[--sp];
                size++;
                int nb[4] = NB(b, q);
                for (int i = 0; i < 4; i++) {
                    int cn = b->color[nb[i]];
                    if (cn == GO_EMPTY && !seen[nb[i]]) { seen[nb[i]] = 1; stack[sp++] = nb[i]; }
                    else if (cn == GO_BLACK || cn == GO_WHITE) reach |= cn;
                }
            }
            if (reach == GO_BLACK) score += size;
            else if (reach == GO_WHITE) score -= size;
        }
    }
    return score;
}

/* Benson's algorithm. Regions are the maximal connected sets of points not
 * of color; a region is vital to a chain when every empty point of the region
 * is a liberty of the chain. Chains with fewer than two vital regions are
 * dropped, then regions touching a dropped chain, until nothing changes. */
int go_benson(const go_board *b, int color, uint8_t *alive)
{
    int area = b->stride * b->stride;
    int region[GO_AREA];             /* region id of a non-color point, -1 else */
    int order[GO_AREA], first[GO_AREA + 1], nregions = 0, no = 0;
    for (int p = 0; p < area; p++) region[p] = -1;
    for (int p = 0; p < area; p++) {
        if (b->color[p] == GO_EDGE || b->color[p] == color || region[p] >= 0) continue;
        first[nregions] = no;
        int k = no;
        order[no++] = p; region[p] = nregions;
        while (k < no) {                    /* breadth-first: order[] doubles as the queue */
            int q = order[k++];
            int nb[4] = NB(b, q);
            for (int i = 0; i < 4; i++) {
                int r = nb[i], cr = b->color[r];
                if (cr != GO_EDGE && cr != color && region[r] < 0) { region[r] = nregions; order[no++] = r; }
            }
        }
        nregions++;
    }
    first[nregions] = no;
    /* (region, chain) pairs: touching, and vital */
    static int pr[4 * GO_AREA], ph[4 * GO_AREA];
    static uint8_t pvital[4 * GO_AREA];
    int np = 0;
    int cnt[GO_AREA], slot[GO_AREA];
    for (int p = 0; p < area; p++) slot[p] = -1;
    for (int r = 0; r < nregions; r++) {
        int empties = 0, start = np;
        for (int k = first[r]; k < first[r + 1]; k++) {
            int p = order[k], seen[4], ns = 0;
            if (b->color[p] == GO_EMPTY) empties++;
            int nb[4] = NB(b, p);
            for (int i = 0; i < 4; i++) {
                if (b->color[nb[i]] != color) continue;
                int h = b->head[nb[i]], dup = 0;
                for (int j = 0; j < ns; j++) dup |= seen[j] == h;
                if (dup) continue;
                seen[ns++] = h;
                if (slot[h] < 0) { slot[h] = np; pr[np] = r; ph[np] = h; cnt[np] = 0; np++; }
                if (b->color[p] == GO_EMPTY) cnt[slot[h]]++;
            }
        }
        for (int j = start; j < np; j++) { pvital[j] = cnt[j] == empties; slot[ph[j]] = -1; }
    }
    uint8_t region_ok[GO_AREA], chain_ok[GO_AREA];
    int vital[GO_AREA];
    memset(region_ok, 1, (size_t)nregions);
    for (int p = 0; p < area; p++) chain_ok[p] = b->color[p] == color && b->head[p] == p;
    for (int changed = 1; changed;) {
        changed = 0;
        for (int p = 0; p < area; p++) vital[p] = 0;
        for (int j = 0; j < np; j++)
            if (pvital[j] && region_ok[pr[j]]) vital[ph[j]]++;
        for (int h = 0; h < area; h++)
            if (chain_ok[h] && vital[h] < 2) { chain_ok[h] = 0; changed = 1; }
        for (int j = 0; j < np; j++)
            if (region_ok[pr[j]] && !chain_ok[ph[j]]) { region_ok[pr[j]] = 0; changed = 1; }
    }
    int n = 0;
    for (int p = 0; p < area; p++) {
        alive[p] = b->color[p] == color && chain_ok[b->head[p]];
        n += alive[p];
    }
    return n;
}

/* ---- games ---- */

void go_game_init(go_game *g, int size)
{
    go_board_init(&g->start, size);
    g->b = g->start;
    g->superko = 0;
    g->n = 0;
    g->keys[0] = g->b.hash;
}

go_error go_game_check(const go_game *g, int color, int p)
{
    go_error e = go_check(&g->b, color, p);
    if (e != GO_OK || p == GO_PASS) return e;
    if (g->n >= GO_MAX_HISTORY) return GO_FULL;
    if (g->superko) {
        uint64_t k = go_key_after(&g->b, color, p);
        for (int i = 0; i <= g->n; i++)
            if (g->keys[i] == k) return GO_SUPERKO;
    }
    return GO_OK;
}

go_error go_game_play(go_game *g, int color, int p)
{
    if (g->n >= GO_MAX_HISTORY) return GO_FULL;
    go_error e = go_game_check(g, color, p);
    if (e != GO_OK) return e;
    go_play(&g->b, color, p);
    g->hist[g->n] = (go_entry){ (uint16_t)p, (uint8_t)color, 0 };
    g->keys[++g->n] = g->b.hash;
    return GO_OK;
}

int go_game_setup(go_game *g, int color, int p)
{
    if (g->n >= GO_MAX_HISTORY) return -1;
    go_setup(&g->b, color, p);
    g->hist[g->n] = (go_entry){ (uint16_t)p, (uint8_t)color, 1 };
    g->keys[++g->n] = g->b.hash;
    return 0;
}

void go_game_set_to_move(go_game *g, int color)
{
    if (g->n >= GO_MAX_HISTORY) { g->b.to_move = color; return; }
    g->hist[g->n] = (go_entry){ 0, (uint8_t)color, 1 };
    g->b.to_move = color;
    g->keys[++g->n] = g->b.hash;
}

int go_game_undo(go_game *g)
{
    if (g->n == 0) return -1;
    g->n--;
    g->b = g->start;
    for (int i = 0; i < g->n; i++) {
        go_entry e = g->hist[i];
        if (!e.setup) go_play(&g->b, e.color, e.point);
        else if (e.point == 0) g->b.to_move = e.color;
        else go_setup(&g->b, e.color, e.point);
    }
    return 0;
}

const char *go_error_text(go_error e)
{
    switch (e) {
    case GO_OK: return "ok";
    case GO_OFFBOARD: return "off the board";
    case GO_OCCUPIED: return "occupied";
    case GO_KO: return "ko";
    case GO_SUICIDE: return "suicide";
    case GO_SUPERKO: return "superko";
    case GO_FULL: return "history full";
    }
    return "?";
}
