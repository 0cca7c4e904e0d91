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

#endif
