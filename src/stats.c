/* stats.c — see stats.h. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>

/* The k-th smallest (0-based) of a[0..n), reordering a (Wirth's selection:
 * linear on average, where a sort would be n log n for each of thousands of rows). */
static double select_kth(double *a, long n, long k)
{
    long l = 0, m = n - 1;
    while (l < m) {
        double x = a[k];
        long i = l, j = m;
        do {
            while (a[i] < x) i++;
            while (x < a[j]) j--;
            if (i <= j) {
                double t = a[i]; a[i] = a[j]; a[j] = t;
                i++; j--;
            }
        } while (i <= j);
        if (j < k) l = i;
        if (k < i) m = j;
    }
    return a[k];
}

/* the quantile rule of stats_bootstrap_mean: index floor(p * draws + 0.5), 1-based, clamped */
static long quantile_index(double p, int draws)
{
    long q = (long)(p * draws + 0.5);
    return q < 1 ? 1 : q > draws ? draws : q;
}

static uint64_t splitmix(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ULL;
    uint64_t z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

int stats_bootstrap_mean(const double *xs, size_t n, int draws, uint64_t seed, double *lo, double *hi)
{
    if (n == 0 || draws < 1) return -1;
    double *means = malloc((size_t)draws * sizeof *means);
    if (!means) return -1;
    uint64_t state = seed;
    for (int d = 0; d < draws; d++) {
        double s = 0;
        for (size_t i = 0; i < n; i++) s += xs[(splitmix(&state) >> 1) % n];
        means[d] = s / (double)n;
    }
    *lo = select_kth(means, draws, quantile_index(0.025, draws) - 1);
    *hi = select_kth(means, draws, quantile_index(0.975, draws) - 1);
    free(means);
    return 0;
}

/* k values handled at once (bounds the memory: 2 * CHUNK * draws means), and
 * the columns summed together (BLOCK running sums stay in registers) */
#define CHUNK 32
#define BLOCK 8
#define STRIDE (2 * CHUNK)    /* per case: pass@k at [0, CHUNK), pass^k at [CHUNK, 2 CHUNK) */

int stats_pass_table(const int *ns, const int *cs, size_t ncases, int draws, uint64_t seed, stats_pass_row *rows)
{
    int kmax = 0;
    for (size_t i = 0; i < ncases; i++) {
        if (ns[i] < 0 || cs[i] < 0 || cs[i] > ns[i]) return -1;
        if (ns[i] > kmax) kmax = ns[i];
    }
    if (kmax == 0 || draws < 1) return 0;
    size_t *live = malloc(ncases * sizeof *live);           /* the cases with n >= k, in order */
    size_t *pick = malloc(ncases * sizeof *pick);           /* one draw's resampled cases */
    double *fail = malloc(ncases * sizeof *fail);           /* running C(n-c,k)/C(n,k) per case */
    double *all = malloc(ncases * sizeof *all);             /* running C(c,k)/C(n,k) per case */
    double *xs = calloc(ncases * STRIDE, sizeof *xs);       /* per live case: its values for the chunk's k */
    double *means = malloc((size_t)draws * STRIDE * sizeof *means);
    if (!live || !pick || !fail || !all || !xs || !means) {
        free(live); free(pick); free(fail); free(all); free(xs); free(means);
        return -1;
    }
    for (size_t i = 0; i < ncases; i++) fail[i] = all[i] = 1;
    long ql = quantile_index(0.025, draws), qh = quantile_index(0.975, draws);
    int k = 1;
    while (k <= kmax) {
        /* a chunk: consecutive k averaging the same cases, at most CHUNK of them */
        size_t m = 0;
        int kend = kmax;
        for (size_t i = 0; i < ncases; i++) {
            if (ns[i] >= k) { live[m++] = i; if (ns[i] < kend) kend = ns[i]; }
        }
        if (kend > k + CHUNK - 1) kend = k + CHUNK - 1;
        size_t w = (size_t)(kend - k + 1);
        for (size_t j = 0; j < m; j++) {
            size_t i = live[j];
            double n = ns[i], c = cs[i], *row = xs + j * STRIDE;
            for (size_t d = 0; d < w; d++) {
                double t = k + (int)d - 1;    /* this k's factors: (n-c-t)/(n-t) and (c-t)/(n-t) */
                fail[i] = n - c - t > 0 ? fail[i] * (n - c - t) / (n - t) : 0;
                all[i] = c - t > 0 ? all[i] * (c - t) / (n - t) : 0;
                row[d] = 1 - fail[i];
                row[CHUNK + d] = all[i];
            }
        }
        /* the columns in use: [0, w) and [CHUNK, CHUNK + w), in whole blocks */
        size_t used = (w + BLOCK - 1) / BLOCK * BLOCK;
        for (size_t half = 0; half < STRIDE; half += CHUNK) {
            for (size_t d = 0; d < w; d++) {
                double sum = 0;
                for (size_t j = 0; j < m; j++) sum += xs[j * STRIDE + half + d];
                stats_pass_row *r = &rows[k - 1 + (int)d];
                r->cases = m;
                if (half == 0) r->at = sum / (double)m; else r->hat = sum / (double)m;
            }
        }
        /* the bootstrap: each draw's resample serves every column, summed in
         * the order stats_bootstrap_mean sums a single one */
        uint64_t state = seed;
        for (int d = 0; d < draws; d++) {
            for (size_t j = 0; j < m; j++) pick[j] = ((splitmix(&state) >> 1) % m) * STRIDE;
            for (size_t half = 0; half < STRIDE; half += CHUNK) {
                for (size_t b = half; b < half + used; b += BLOCK) {
                    double s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0;   /* in registers */
                    for (size_t j = 0; j < m; j++) {
                        const double *row = xs + pick[j] + b;
                        s0 += row[0]; s1 += row[1]; s2 += row[2]; s3 += row[3];
                        s4 += row[4]; s5 += row[5]; s6 += row[6]; s7 += row[7];
                    }
                    double s[BLOCK] = {s0, s1, s2, s3, s4, s5, s6, s7};
                    for (int t = 0; t < BLOCK; t++) means[(b + (size_t)t) * (size_t)draws + (size_t)d] = s[t] / (double)m;
                }
            }
        }
        for (size_t half = 0; half < STRIDE; half += CHUNK) {
            for (size_t d = 0; d < w; d++) {
                double *mv = means + (half + d) * (size_t)draws;
                double lo = select_kth(mv, draws, ql - 1), hi = select_kth(mv, draws, qh - 1);
                stats_pass_row *r = &rows[k - 1 + (int)d];
                if (half == 0) { r->at_lo = lo; r->at_hi = hi; } else { r->hat_lo = lo; r->hat_hi = hi; }
            }
        }
        k = kend + 1;
    }
    free(live); free(pick); free(fail); free(all); free(xs); free(means);
    return 0;
}

/* ---- numpy's default generator (see stats.h) ---- */

/* SeedSequence's constants (numpy/random/bit_generator.pyx, after M.E. O'Neill's seed_seq design) */
#define SS_INIT_A 0x43b0d7e5u
#define SS_MULT_A 0x931e8875u
#define SS_INIT_B 0x8b51f9ddu
#define SS_MULT_B 0x58f38dedu
#define SS_MIX_L 0xca01f9ddu
#define SS_MIX_R 0x4973f715u
#define SS_POOL 4

static uint32_t ss_hashmix(uint32_t value, uint32_t *hash_const)
{
    value ^= *hash_const;
    *hash_const *= SS_MULT_A;
    value *= *hash_const;
    return value ^ (value >> 16);
}

static uint32_t ss_mix(uint32_t x, uint32_t y)
{
    uint32_t r = SS_MIX_L * x - SS_MIX_R * y;
    return r ^ (r >> 16);
}

void stats_seed_sequence(uint64_t entropy, uint32_t *out, size_t nwords)
{
    /* the entropy as 32-bit words, least significant first (one word for 0) */
    uint32_t words[2];
    size_t nent = 0;
    do { words[nent++] = (uint32_t)entropy; entropy >>= 32; } while (entropy && nent < 2);
    uint32_t pool[SS_POOL], h = SS_INIT_A;
    for (size_t i = 0; i < SS_POOL; i++) pool[i] = ss_hashmix(i < nent ? words[i] : 0, &h);
    for (size_t src = 0; src < SS_POOL; src++)
        for (size_t dst = 0; dst < SS_POOL; dst++)
            if (src != dst) pool[dst] = ss_mix(pool[dst], ss_hashmix(pool[src], &h));
    /* (entropy beyond the pool's 4 words would be mixed in here; 64 bits never are) */
    uint32_t hb = SS_INIT_B;
    for (size_t i = 0; i < nwords; i++) {
        uint32_t v = pool[i % SS_POOL] ^ hb;
        hb *= SS_MULT_B;
        v *= hb;
        out[i] = v ^ (v >> 16);
    }
}

#define PCG_MULT (((unsigned __int128)2549297995355413924ULL << 64) | 4865540595714422341ULL)

static void pcg_step(stats_pcg64 *g) { g->state = g->state * PCG_MULT + g->inc; }

void stats_pcg64_seed(stats_pcg64 *g, uint64_t seed)
{
    uint32_t w[8];
    stats_seed_sequence(seed, w, 8);
    uint64_t v[4];    /* generate_state(4, uint64): word pairs, low half first */
    for (int i = 0; i < 4; i++) v[i] = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
    unsigned __int128 s = (unsigned __int128)v[0] << 64 | v[1], inc = (unsigned __int128)v[2] << 64 | v[3];
    g->state = 0;
    g->inc = inc << 1 | 1;
    pcg_step(g);
    g->state += s;
    pcg_step(g);
    g->has32 = 0;
    g->buf32 = 0;
}

uint64_t stats_pcg64_next64(stats_pcg64 *g)
{
    pcg_step(g);
    uint64_t hi = (uint64_t)(g->state >> 64), lo = (uint64_t)g->state;
    unsigned rot = (unsigned)(g->state >> 122);
    uint64_t x = hi ^ lo;
    return (x >> rot) | (x << ((64 - rot) & 63));
}

uint32_t stats_pcg64_next32(stats_pcg64 *g)
{
    if (g->has32) { g->has32 = 0; return g->buf32; }
    uint64_t v = stats_pcg64_next64(g);
    g->has32 = 1;
    g->buf32 = (uint32_t)(v >> 32);
    return (uint32_t)v;
}

uint32_t stats_pcg64_below(stats_pcg64 *g, uint64_t high)
{
    if (high <= 1) return 0;
    if (high == (uint64_t)1 << 32) return stats_pcg64_next32(g);    /* the full range: a raw draw */
    /* Lemire's multiply-and-reject on 32-bit draws (numpy's buffered_bounded_lemire_uint32) */
    uint32_t range = (uint32_t)(high - 1), excl = (uint32_t)high;
    uint64_t m = (uint64_t)stats_pcg64_next32(g) * excl;
    uint32_t left = (uint32_t)m;
    if (left < excl) {
        uint32_t threshold = (UINT32_MAX - range) % excl;
        while (left < threshold) {
            m = (uint64_t)stats_pcg64_next32(g) * excl;
            left = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

double stats_pcg64_double(stats_pcg64 *g)
{
    return (double)(stats_pcg64_next64(g) >> 11) * (1.0 / 9007199254740992.0);
}

double stats_np_sum(const double *a, size_t n)
{
    if (n < 8) {
        double res = 0.;
        for (size_t i = 0; i < n; i++) res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        size_t i;
        for (i = 0; i < 8; i++) r[i] = a[i];
        for (i = 8; i < n - (n % 8); i += 8)
            for (size_t j = 0; j < 8; j++) r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += a[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return stats_np_sum(a, n2) + stats_np_sum(a + n2, n - n2);
}

double stats_np_quantile_sorted(const double *xs, size_t n, double q)
{
    double v = (double)(n - 1) * q;    /* the virtual index of the linear rule */
    if (v >= (double)(n - 1)) return xs[n - 1];
    if (v < 0) return xs[0];
    double below = floor(v), t = v - below;
    double a = xs[(size_t)below], b = xs[(size_t)below + 1], d = b - a;
    /* numpy's _lerp: from the nearer end */
    return t >= 0.5 ? b - d * (1 - t) : a + d * t;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

int stats_np_bootstrap_mean(const double *xs, size_t n, int draws, uint64_t seed, double *mean, double *lo, double *hi)
{
    if (n == 0 || n > UINT32_MAX || draws < 1) return -1;
    *mean = stats_np_sum(xs, n) / (double)n;
    if (n < 2) return 0;
    double *means = malloc((size_t)draws * sizeof *means), *row = malloc(n * sizeof *row);
    if (!means || !row) { free(means); free(row); return -1; }
    stats_pcg64 g;
    stats_pcg64_seed(&g, seed);
    /* the index array is drawn row by row (C order), and each row averaged */
    for (int d = 0; d < draws; d++) {
        for (size_t j = 0; j < n; j++) row[j] = xs[stats_pcg64_below(&g, n)];
        means[d] = stats_np_sum(row, n) / (double)n;
    }
    qsort(means, (size_t)draws, sizeof *means, cmp_double);
    *lo = stats_np_quantile_sorted(means, (size_t)draws, 0.025);
    *hi = stats_np_quantile_sorted(means, (size_t)draws, 0.975);
    free(means);
    free(row);
    return 1;
}

/* C(n, k) exactly, for n <= 50 (below 2^53, so the double is exact) */
static double binom(int n, int k)
{
    if (k < 0 || k > n) return 0;
    uint64_t r = 1;
    for (int i = 0; i < k; i++) r = r * (uint64_t)(n - i) / (uint64_t)(i + 1);
    return (double)r;
}

int stats_official_pass_rows(const int *ms, const int *cs, size_t ncases, int kmax, int draws, uint64_t base_seed,
                             stats_official_row *rows)
{
    if (kmax < 1 || kmax > 50 || draws < 1) return -1;
    for (size_t i = 0; i < ncases; i++)
        if (ms[i] < 0 || ms[i] > kmax || cs[i] < 0 || cs[i] > ms[i]) return -1;
    double *at = malloc((ncases ? ncases : 1) * sizeof *at), *hat = malloc((ncases ? ncases : 1) * sizeof *hat);
    if (!at || !hat) { free(at); free(hat); return -1; }
    int rc = 0;
    for (int k = 1; k <= kmax && rc == 0; k++) {
        for (size_t i = 0; i < ncases; i++) {
            int m = ms[i], c = cs[i];
            if (m >= k) {
                at[i] = m - c < k ? 1.0 : 1.0 - binom(m - c, k) / binom(m, k);
                hat[i] = c < k ? 0.0 : binom(c, k) / binom(m, k);
            } else {
                at[i] = c > 0 ? 1.0 : 0.0;
                hat[i] = 0.0;
            }
        }
        stats_official_row *r = &rows[k - 1];
        r->cases = ncases;
        r->at = r->at_lo = r->at_hi = r->hat = r->hat_lo = r->hat_hi = 0;
        r->has_ci = 0;
        if (ncases == 0) continue;
        int got = stats_np_bootstrap_mean(at, ncases, draws, base_seed + 100 * (uint64_t)k, &r->at, &r->at_lo, &r->at_hi);
        if (got < 0) { rc = -1; break; }
        r->has_ci = got;
        if (k == 1) {
            r->hat = r->at; r->hat_lo = r->at_lo; r->hat_hi = r->at_hi;
        } else if (stats_np_bootstrap_mean(hat, ncases, draws, base_seed + 400 + 100 * (uint64_t)k, &r->hat, &r->hat_lo,
                                           &r->hat_hi) < 0) {
            rc = -1;
        }
    }
    free(at);
    free(hat);
    return rc;
}
