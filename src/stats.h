/* stats.h — resampling statistics that reports run thousands of times. */
#ifndef TABULA_STATS_H
#define TABULA_STATS_H

#include <stddef.h>
#include <stdint.h>

/* The 95% percentile interval of the mean of xs[0..n) resampled with
 * replacement, `draws` times, indices drawn by splitmix64 from `seed` (the same
 * stream as tabula.metrics.rng, so the Lua and C versions agree exactly).
 * Returns 0, or -1 when out of memory or n == 0. */
int stats_bootstrap_mean(const double *xs, size_t n, int draws, uint64_t seed, double *lo, double *hi);

/* One row of a pass table: pass@k and pass^k averaged over the cases with at
 * least k trials, each with its 95% case-bootstrap interval. */
typedef struct {
    size_t cases;                  /* the cases with at least k trials */
    double at, at_lo, at_hi;       /* pass@k = 1 - C(n-c,k)/C(n,k) */
    double hat, hat_lo, hat_hi;    /* pass^k = C(c,k)/C(n,k) */
} stats_pass_row;

/* Rows k = 1..max(ns) into rows[0..max(ns)) for cases with ns[i] trials and
 * cs[i] successes (in the order the bootstrap indexes them). Each row's
 * interval is exactly stats_bootstrap_mean over that row's per-case values;
 * the values come from running products (k(n) work per case for all k, no
 * binomial that overflows), and one resampling serves every k that averages
 * the same cases. Returns 0, or -1 when out of memory or a count is invalid. */
int stats_pass_table(const int *ns, const int *cs, size_t ncases, int draws, uint64_t seed, stats_pass_row *rows);

/* ---- numpy's default generator and the official XiangqiBench scorer ----
 * The official scorer (floatai/xiangqibench 0.1.0, scoring.py) draws its
 * case bootstrap from numpy.random.default_rng(seed): PCG64 (XSL-RR, 128-bit
 * LCG) seeded through SeedSequence, indices by Generator.integers (Lemire's
 * bounded rule on 32-bit draws), means by numpy's pairwise summation, and
 * endpoints by np.quantile's default (linear) rule. These reproduce each step
 * so that the intervals equal the official ones on the same values. */

typedef struct {
    unsigned __int128 state, inc;
    int has32;           /* a buffered upper half of the last 64-bit output */
    uint32_t buf32;
} stats_pcg64;

/* SeedSequence(entropy).generate_state(nwords, uint32) into out[0..nwords) */
void stats_seed_sequence(uint64_t entropy, uint32_t *out, size_t nwords);
/* g = PCG64(SeedSequence(seed)), as numpy.random.default_rng(seed) */
void stats_pcg64_seed(stats_pcg64 *g, uint64_t seed);
uint64_t stats_pcg64_next64(stats_pcg64 *g);
/* the low half of a fresh 64-bit output, then its high half (numpy's next_uint32) */
uint32_t stats_pcg64_next32(stats_pcg64 *g);
/* one draw of Generator.integers(0, high) for 1 <= high <= 2^32 */
uint32_t stats_pcg64_below(stats_pcg64 *g, uint64_t high);
/* Generator.random(): a double in [0, 1) from the top 53 bits */
double stats_pcg64_double(stats_pcg64 *g);

/* numpy's sum of a contiguous float64 array (pairwise: 8 accumulators up to
 * 128 values, halves above) */
double stats_np_sum(const double *xs, size_t n);
/* np.quantile(xs, q) with the default linear rule; xs must be sorted ascending */
double stats_np_quantile_sorted(const double *xs, size_t n, double q);

/* scoring.bootstrap_mean: *mean = the mean of xs[0..n); when n >= 2 the 95%
 * percentile interval of `draws` resampled means (default_rng(seed),
 * integers(0, n, size=(draws, n)), rows averaged, quantiles 0.025 and
 * 0.975). Returns 1 with an interval, 0 without one (n < 2: the official
 * scorer gives none), -1 when n == 0, n >= 2^32 or out of memory. */
int stats_np_bootstrap_mean(const double *xs, size_t n, int draws, uint64_t seed, double *mean, double *lo, double *hi);

/* One row (one k) of the official table: values, intervals, and whether each
 * interval exists (has_ci = 0 when fewer than 2 cases). */
typedef struct {
    size_t cases;
    double at, at_lo, at_hi;
    double hat, hat_lo, hat_hi;
    int has_ci;
} stats_official_row;

/* The official table for k = 1..kmax over ncases cases, case i with ms[i]
 * selected trials (the earliest kmax) and cs[i] of them passed: pass@k =
 * 1 - C(m-c,k)/C(m,k) (1 when m-c < k) and pass^k = C(c,k)/C(m,k); a case
 * with m < k counts 1 for pass@k if it has a pass, 0 for pass^k. Seeds:
 * base + 100k for pass@k, base + 400 + 100k for pass^k (k >= 2; pass^1 is
 * pass@1). Returns 0, or -1 on bad counts (m > kmax, c > m, kmax > 50: the
 * binomials stay exact in a double, so each ratio rounds as Python's) or out
 * of memory. */
int stats_official_pass_rows(const int *ms, const int *cs, size_t ncases, int kmax, int draws, uint64_t base_seed,
                             stats_official_row *rows);

#endif
