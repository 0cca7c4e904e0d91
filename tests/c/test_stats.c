/* Unit tests of src/stats.c's numpy-compatible pieces against values numpy
 * itself publishes (numpy is not needed to run them):
 *  - SeedSequence(0).generate_state(4, uint64), quoted as the PCG64 seed and
 *    increment in numpy/random/src/pcg64/pcg64-test-data-gen.c;
 *  - SeedSequence(0xDEADBEAF).generate_state(2, uint64), quoted in
 *    numpy/random/src/pcg32/pcg32-test-data-gen.c;
 *  - PCG64(38219308213743).state["state"]["state"] ==
 *    287608843259529770491897792873167516365 (numpy/random/tests/test_direct.py,
 *    TestPCG64.test_advange_large): two words of entropy through SeedSequence
 *    and PCG64's seeding;
 *  - PCG64(0).random_raw() starting 0xa30febcfd9c2825f, 0x4510bdf882d9d721,
 *    0x0a7d3da94ecde8b8, 0x043b27b61342f01d, 0xd0327a782cde513b: the first
 *    lines of numpy's current pcg64-testset-2.csv as quoted by two independent
 *    ports that test against it (the copies of that file in the search index
 *    are older revisions, seeded before SeedSequence existed);
 *  - default_rng(12345).random() == 0.22733602246716966 and
 *    default_rng(12345).integers(low=0, high=10, size=3) == [6, 2, 7]: the
 *    examples of numpy.random.default_rng's docstring (_generator.pyx);
 *  - default_rng(42).random((3, 3)) first row 0.77395605 0.43887844 0.85859792
 *    (the same docstring, printed to 8 digits);
 *  - np.quantile([[10, 7, 4], [3, 2, 1]], 0.5) == 3.5 (numpy.quantile's docstring). */
#include "check.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>

int main(void)
{
    uint32_t w[8];
    stats_seed_sequence(0, w, 8);
    const uint64_t seed0[4] = {15793235383387715774ULL, 12390638538380655177ULL, 2361836109651742017ULL,
                               3188717715514472916ULL};
    for (int i = 0; i < 4; i++) {
        uint64_t v = (uint64_t)w[2 * i] | (uint64_t)w[2 * i + 1] << 32;
        CHECK(v == seed0[i], "SeedSequence(0) word %d: %llu", i, (unsigned long long)v);
    }
    stats_seed_sequence(0xDEADBEAF, w, 4);
    CHECK(((uint64_t)w[0] | (uint64_t)w[1] << 32) == 5778446405158232650ULL, "SeedSequence(0xDEADBEAF) word 0");
    CHECK(((uint64_t)w[2] | (uint64_t)w[3] << 32) == 4639759349701729399ULL, "SeedSequence(0xDEADBEAF) word 1");

    stats_pcg64 g;
    stats_pcg64_seed(&g, 38219308213743ULL);
    CHECK((uint64_t)(g.state >> 64) == 0xd85f72c717ad8f6cULL && (uint64_t)g.state == 0x6962e34f5a12f2cdULL,
          "PCG64(38219308213743) state %016llx%016llx", (unsigned long long)(g.state >> 64), (unsigned long long)g.state);
    stats_pcg64_seed(&g, 0);
    const uint64_t raw0[5] = {0xa30febcfd9c2825fULL, 0x4510bdf882d9d721ULL, 0x0a7d3da94ecde8b8ULL, 0x043b27b61342f01dULL,
                              0xd0327a782cde513bULL};
    uint64_t raw[5];
    for (int i = 0; i < 5; i++) {
        raw[i] = stats_pcg64_next64(&g);
        CHECK(raw[i] == raw0[i], "PCG64(0) output %d: %016llx", i, (unsigned long long)raw[i]);
    }

    stats_pcg64_seed(&g, 12345);
    CHECK(stats_pcg64_double(&g) == 0.22733602246716966, "default_rng(12345).random()");
    stats_pcg64_seed(&g, 12345);
    uint32_t a = stats_pcg64_below(&g, 10), b = stats_pcg64_below(&g, 10), c = stats_pcg64_below(&g, 10);
    CHECK(a == 6 && b == 2 && c == 7, "default_rng(12345).integers(0, 10, 3) = %u %u %u", a, b, c);
    stats_pcg64_seed(&g, 42);
    const double row42[3] = {0.77395605, 0.43887844, 0.85859792};
    for (int i = 0; i < 3; i++) {
        double x = stats_pcg64_double(&g);
        CHECK(fabs(x - row42[i]) < 5e-9, "default_rng(42).random() #%d = %.10f", i, x);
    }
    /* the 32-bit halves: the low half of one output, then its high half */
    stats_pcg64_seed(&g, 0);
    uint32_t lo = stats_pcg64_next32(&g), hi = stats_pcg64_next32(&g);
    CHECK(lo == (uint32_t)raw[0] && hi == (uint32_t)(raw[0] >> 32), "next32 halves");

    /* the quantile rule */
    double qs[6] = {1, 2, 3, 4, 7, 10};
    CHECK(stats_np_quantile_sorted(qs, 6, 0.5) == 3.5, "np.quantile docstring example");
    CHECK(stats_np_quantile_sorted(qs, 6, 0.0) == 1 && stats_np_quantile_sorted(qs, 6, 1.0) == 10, "quantile ends");

    /* pairwise summation: 8 accumulators change the rounding of a long sum */
    double xs[200];
    for (int i = 0; i < 200; i++) xs[i] = i % 3 == 0 ? 0.1 : 1.0 / 3;
    double naive = 0;
    for (int i = 0; i < 200; i++) naive += xs[i];
    double pw = stats_np_sum(xs, 200);
    CHECK(fabs(pw - naive) < 1e-12, "pairwise sum %.17g near %.17g", pw, naive);

    /* the bootstrap: no interval for one value; a constant sample has a point interval */
    double mean, l, h;
    double one[1] = {0.5};
    CHECK(stats_np_bootstrap_mean(one, 1, 4000, 2127, &mean, &l, &h) == 0 && mean == 0.5, "one case: no interval");
    double same[5] = {1, 1, 1, 1, 1};
    CHECK(stats_np_bootstrap_mean(same, 5, 4000, 2127, &mean, &l, &h) == 1 && l == 1 && h == 1, "constant sample");

    /* the official rows: a case with m < k stays (pass@k = any pass, pass^k = 0) */
    int ms[3] = {3, 1, 2}, cs[3] = {1, 1, 0};
    stats_official_row rows[3];
    CHECK(stats_official_pass_rows(ms, cs, 3, 3, 4000, 2027, rows) == 0, "rows");
    CHECK(fabs(rows[0].at - (1.0 / 3 + 1 + 0) / 3) < 1e-15, "pass@1 %.17g", rows[0].at);
    CHECK(fabs(rows[2].at - (1 + 1 + 0) / 3.0) < 1e-15, "pass@3 keeps the short cases: %.17g", rows[2].at);
    CHECK(rows[2].hat == 0, "pass^3 of short cases is 0");
    CHECK(rows[0].hat == rows[0].at && rows[0].hat_lo == rows[0].at_lo, "pass^1 is pass@1");
    int bad_m[1] = {4}, bad_c[1] = {0};
    CHECK(stats_official_pass_rows(bad_m, bad_c, 1, 3, 4000, 2027, rows) == -1, "more trials than kmax refused");
    return check_report("test_stats");
}
