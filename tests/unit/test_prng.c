/*
 * test_prng.c - the statistics' generator: splitmix64 against its published
 * first output for seed 0 (0xe220a8397b1dcdaf), xoshiro256** against the
 * reference algorithm run by hand (Python, same seed), the same seed giving
 * the same stream, stats_rng_below staying in range and uniform (chi-square
 * far inside its tail), and stats_rng_normal's mean and variance.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "stats/prng.h"

static void test_reference_values(void **state)
{
    (void)state;
    uint64_t x = 0;
    assert_true(stats_rng_splitmix64(&x) == 0xe220a8397b1dcdafULL);
    assert_true(stats_rng_splitmix64(&x) == 0x6e789e6aa1b965f4ULL);
    struct stats_rng r;
    stats_rng_seed(&r, 0);
    assert_true(r.s[0] == 0xe220a8397b1dcdafULL);
    assert_true(r.s[3] == 0xf88bb8a8724c81ecULL);
    assert_true(stats_rng_next(&r) == 0x99ec5f36cb75f2b4ULL);
    assert_true(stats_rng_next(&r) == 0xbf6e1f784956452aULL);
    assert_true(stats_rng_next(&r) == 0x1a5f849d4933e6e0ULL);
}

static void test_same_seed_same_stream(void **state)
{
    (void)state;
    struct stats_rng a, b, c;
    stats_rng_seed(&a, 42);
    stats_rng_seed(&b, 42);
    stats_rng_seed(&c, 43);
    int differ = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = stats_rng_next(&a);
        assert_true(x == stats_rng_next(&b));
        differ += x != stats_rng_next(&c);
    }
    assert_true(differ > 990);
}

static void test_below_uniform(void **state)
{
    (void)state;
    struct stats_rng r;
    stats_rng_seed(&r, 7);
    enum { K = 7, N = 70000 };
    long count[K] = {0};
    for (int i = 0; i < N; i++) {
        uint64_t v = stats_rng_below(&r, K);
        assert_true(v < K);
        count[v]++;
    }
    double chi = 0, e = (double)N / K;
    for (int i = 0; i < K; i++)
        chi += (count[i] - e) * (count[i] - e) / e;
    assert_true(chi < 22.46); /* chi-square, 6 df: P(> 22.46) = 0.001 */
    assert_true(stats_rng_below(&r, 1) == 0);
    assert_true(stats_rng_below(&r, 0) == 0);
    for (int i = 0; i < 1000; i++) {
        double u = stats_rng_unit(&r);
        assert_true(u >= 0 && u < 1);
    }
}

static void test_normal_moments(void **state)
{
    (void)state;
    struct stats_rng r;
    stats_rng_seed(&r, 11);
    enum { N = 100000 };
    double s = 0, ss = 0;
    for (int i = 0; i < N; i++) {
        double z = stats_rng_normal(&r);
        s += z, ss += z * z;
    }
    double mean = s / N, var = ss / N - mean * mean;
    assert_true(fabs(mean) < 0.015); /* 4.7 standard errors */
    assert_true(fabs(var - 1) < 0.02);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_values),
        cmocka_unit_test(test_same_seed_same_stream),
        cmocka_unit_test(test_below_uniform),
        cmocka_unit_test(test_normal_moments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
