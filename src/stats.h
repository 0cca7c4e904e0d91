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

#endif
