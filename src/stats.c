/* stats.c — see stats.h. */
#include "stats.h"

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
