/* stats.c — see stats.h. */
#include "stats.h"

#include <stdlib.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int stats_bootstrap_mean(const double *xs, size_t n, int draws, uint64_t seed, double *lo, double *hi)
{
    if (n == 0 || draws < 1) return -1;
    double *means = malloc((size_t)draws * sizeof *means);
    if (!means) return -1;
    uint64_t state = seed;
    for (int d = 0; d < draws; d++) {
        double s = 0;
        for (size_t i = 0; i < n; i++) {
            state += 0x9E3779B97F4A7C15ULL;
            uint64_t z = state;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            z ^= z >> 31;
            s += xs[(z >> 1) % n];
        }
        means[d] = s / (double)n;
    }
    qsort(means, (size_t)draws, sizeof *means, cmp_double);
    /* the same quantile rule as the Lua version: index floor(p * draws + 0.5), 1-based, clamped */
    long ql = (long)(0.025 * draws + 0.5), qh = (long)(0.975 * draws + 0.5);
    if (ql < 1) ql = 1;
    if (ql > draws) ql = draws;
    if (qh < 1) qh = 1;
    if (qh > draws) qh = draws;
    *lo = means[ql - 1];
    *hi = means[qh - 1];
    free(means);
    return 0;
}
