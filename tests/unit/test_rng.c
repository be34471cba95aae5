/*
 * test_rng.c - the generator and sysbench's --rand-type distributions, which
 * decide which rows the clients hit (and so lock contention and cache hits).
 * Checks reproducibility per (seed, stream), range bounds, a chi-square test
 * of rng_uniform, and the SHAPE of each distribution against what sysbench
 * defines: gaussian narrower than uniform around the centre, special putting
 * ~75% of draws in the middle 1%, pareto(h=0.2) putting ~80% in the lowest
 * 20%, zipfian following k^-0.8. All seeds are fixed, so nothing is flaky;
 * thresholds are several standard deviations loose.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "client/rng.h"

/* sysbench's defaults: special, iter 12, pct 1, res 75, pareto h 0.2, zipf exp 0.8 */
static void dist(struct rng_dist *d, const char *kind)
{
    assert_int_equal(rng_dist_init(d, kind, 12, 1, 75, 0.2, 0.8), 0);
}

static void test_seed_streams(void **state)
{
    (void)state;
    struct rng a, b, c, z;
    rng_seed(&a, 42, 3);
    rng_seed(&b, 42, 3);
    rng_seed(&c, 42, 4);
    rng_seed(&z, 0, 0); /* seed 0 must not give the all-zero (stuck) state */
    int same_c = 0, zero = 0;
    for (int i = 0; i < 1000; i++) {
        uint64_t x = rng_next(&a);
        assert_true(x == rng_next(&b));
        same_c += x == rng_next(&c);
        zero += rng_next(&z) == 0;
    }
    assert_int_equal(same_c, 0);
    assert_true(zero < 2);
    /* another seed, same stream, differs too */
    rng_seed(&a, 42, 3);
    rng_seed(&b, 43, 3);
    assert_true(rng_next(&a) != rng_next(&b));
    /* rng_double is in [0, 1) */
    for (int i = 0; i < 100000; i++) {
        double d = rng_double(&a);
        assert_true(d >= 0 && d < 1);
    }
}

static void test_uniform(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 7, 0);
    for (int i = 0; i < 100000; i++) {
        uint32_t v = rng_uniform(&r, 10, 20);
        assert_true(v >= 10 && v <= 20);
    }
    assert_int_equal(rng_uniform(&r, 5, 5), 5);
    int saw0 = 0, sawmax = 0;
    for (int i = 0; i < 100000; i++) {
        uint32_t v = rng_uniform(&r, 0, 3);
        saw0 |= v == 0;
        sawmax |= v == 3;
        (void)rng_uniform(&r, 0, UINT32_MAX); /* the full range must not wrap */
    }
    assert_true(saw0 && sawmax);

    /* chi-square over 10 equal bins of [1, 1000]: 9 df, p = 0.001 at 27.9 */
    enum { N = 200000 };
    long bins[10] = {0};
    for (int i = 0; i < N; i++)
        bins[(rng_uniform(&r, 1, 1000) - 1) / 100]++;
    double chi = 0, e = N / 10.0;
    for (int i = 0; i < 10; i++)
        chi += (bins[i] - e) * (bins[i] - e) / e;
    if (chi > 27.9)
        fail_msg("chi-square %.1f over 10 bins", chi);
}

struct moments {
    double mean, sd;
    uint32_t lo, hi;
};

static struct moments sample(const struct rng_dist *d, struct rng *r, uint32_t a, uint32_t b, int n,
                             uint32_t *out)
{
    struct moments m = {0, 0, UINT32_MAX, 0};
    double s = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        uint32_t v = rng_dist(d, r, a, b);
        if (v < a || v > b)
            fail_msg("draw %u outside [%u, %u]", v, a, b);
        if (out)
            out[i] = v;
        s += v;
        s2 += (double)v * v;
        m.lo = v < m.lo ? v : m.lo;
        m.hi = v > m.hi ? v : m.hi;
    }
    m.mean = s / n;
    m.sd = sqrt(s2 / n - m.mean * m.mean);
    return m;
}

static void test_bounds_all_kinds(void **state)
{
    (void)state;
    static const char *kinds[] = {"uniform", "gaussian", "special", "pareto", "zipfian"};
    static const uint32_t ranges[][2] = {
        {1, 1}, {1, 2}, {1, 10}, {5, 17}, {1, 10000}, {0, 1000000}, {4000000000u, 4000000100u}};
    struct rng r;
    rng_seed(&r, 99, 1);
    for (size_t k = 0; k < 5; k++) {
        struct rng_dist d;
        dist(&d, kinds[k]);
        for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
            struct moments m = sample(&d, &r, ranges[i][0], ranges[i][1], 20000, NULL);
            /* small ranges are covered end to end (gaussian's tails are thin) */
            if (ranges[i][1] - ranges[i][0] <= 2 && strcmp(kinds[k], "gaussian") != 0 &&
                strcmp(kinds[k], "special") != 0)
                assert_true(m.lo == ranges[i][0] && m.hi == ranges[i][1]);
        }
    }
}

static void test_gaussian(void **state)
{
    (void)state;
    struct rng r;
    struct rng_dist g, u;
    rng_seed(&r, 1, 2);
    dist(&g, "gaussian");
    dist(&u, "uniform");
    struct moments mg = sample(&g, &r, 1, 10000, 100000, NULL);
    struct moments mu = sample(&u, &r, 1, 10000, 100000, NULL);
    /* uniform sd = 10000/sqrt(12) = 2887; the mean of 12 uniforms: 2887/sqrt(12) = 833 */
    assert_float_equal(mu.mean, 5000.5, 50);
    assert_float_equal(mu.sd, 2887, 60);
    assert_float_equal(mg.mean, 5000.5, 30);
    assert_float_equal(mg.sd, 833, 30);
    assert_true(mg.sd < mu.sd / 2);
}

static void test_special(void **state)
{
    (void)state;
    struct rng r;
    struct rng_dist d;
    rng_seed(&r, 5, 0);
    dist(&d, "special");
    enum { N = 200000 };
    const uint32_t a = 1, b = 100000;
    /* the 1% slice at the middle: [a + t/2 - t/200, a + t/2 + t/200 + 1], t = b - a */
    double t = b - a, slo = a + t / 2 - t / 200, shi = a + t / 2 + t / 200 + 1;
    long in = 0, low = 0;
    double s = 0;
    for (int i = 0; i < N; i++) {
        uint32_t v = rng_dist(&d, &r, a, b);
        assert_true(v >= a && v <= b);
        in += v >= slo && v <= shi;
        low += v < a + t / 4;
        s += v;
    }
    /* 75% from the hot slice, plus the gaussian 25%'s share of it (~1.2%) */
    double frac = (double)in / N;
    if (frac < 0.74 || frac > 0.79)
        fail_msg("%.1f%% of special draws in the middle 1%%, want ~76%%", frac * 100);
    assert_float_equal(s / N, (a + b) / 2.0, 300); /* symmetric about the centre */
    assert_true(low < N / 100);                    /* the rest is gaussian, not uniform */

    /* res 0: no hot slice, plain gaussian */
    assert_int_equal(rng_dist_init(&d, "special", 12, 1, 0, 0.2, 0.8), 0);
    in = 0;
    for (int i = 0; i < N; i++) {
        uint32_t v = rng_dist(&d, &r, a, b);
        in += v >= slo && v <= shi;
    }
    assert_true((double)in / N < 0.08);
}

static void test_pareto(void **state)
{
    (void)state;
    struct rng r;
    struct rng_dist d;
    rng_seed(&r, 11, 0);
    dist(&d, "pareto");
    enum { N = 200000 };
    uint32_t *v = malloc(N * sizeof *v);
    sample(&d, &r, 1, 10000, N, v);
    long low20 = 0, low1 = 0, top50 = 0;
    for (int i = 0; i < N; i++) {
        low20 += v[i] <= 2000;
        low1 += v[i] <= 100;
        top50 += v[i] > 5000;
    }
    /* P(x <= a + 0.2 n) = 0.2^(log(0.8)/log(0.2)) = 0.8: the 80/20 rule */
    double f = (double)low20 / N;
    if (f < 0.78 || f > 0.82)
        fail_msg("%.1f%% of pareto draws in the lowest 20%%, want 80%%", f * 100);
    assert_true((double)low1 / N > 0.45); /* 0.01^(1/7.21) = 0.53 */
    assert_true((double)top50 / N < 0.10);
    free(v);
}

static void test_zipfian(void **state)
{
    (void)state;
    struct rng r;
    struct rng_dist d;
    rng_seed(&r, 13, 0);
    dist(&d, "zipfian");
    enum { N = 300000, M = 1000 };
    long *cnt = calloc(M + 1, sizeof *cnt);
    uint32_t *v = malloc(N * sizeof *v);
    sample(&d, &r, 1, M, N, v);
    for (int i = 0; i < N; i++)
        cnt[v[i]]++;
    assert_true(cnt[1] > cnt[2]);
    assert_true(cnt[2] > cnt[10]);
    assert_true(cnt[10] > cnt[100]);
    /* P(k) ~ k^-0.8: f(1)/f(2) = 1.74, f(1)/f(10) = 6.31, f(1)/f(100) = 39.8 */
    double r2 = (double)cnt[1] / cnt[2], r10 = (double)cnt[1] / cnt[10];
    double r100 = (double)cnt[1] / cnt[100];
    if (fabs(r2 / 1.741 - 1) > 0.08 || fabs(r10 / 6.310 - 1) > 0.10 ||
        fabs(r100 / 39.81 - 1) > 0.25)
        fail_msg("zipf ratios f1/f2 %.2f f1/f10 %.2f f1/f100 %.2f", r2, r10, r100);
    /* P(1) = 1 / sum_k k^-0.8 */
    double hn = 0;
    for (int k = 1; k <= M; k++)
        hn += pow(k, -0.8);
    assert_float_equal((double)cnt[1] / N, 1 / hn, 0.1 / hn);
    /* an offset range: value a is the most frequent */
    long at_a = 0, at_a1 = 0;
    for (int i = 0; i < 50000; i++) {
        uint32_t x = rng_dist(&d, &r, 500, 1499);
        assert_true(x >= 500 && x <= 1499);
        at_a += x == 500;
        at_a1 += x == 501;
    }
    assert_true(at_a > at_a1);
    /* exponent 0: uniform */
    assert_int_equal(rng_dist_init(&d, "zipfian", 12, 1, 75, 0.2, 0.0), 0);
    struct moments m = sample(&d, &r, 1, 100, 100000, NULL);
    assert_float_equal(m.mean, 50.5, 1);
    free(cnt);
    free(v);
}

static void test_dist_init(void **state)
{
    (void)state;
    struct rng_dist d;
    assert_int_equal(rng_dist_init(&d, "uniform", 12, 1, 75, 0.2, 0.8), 0);
    assert_int_equal(d.kind, RNG_UNIFORM);
    assert_int_equal(rng_dist_init(&d, "zipfian", 12, 1, 75, 0.2, 0.8), 0);
    assert_int_equal(d.kind, RNG_ZIPFIAN);
    assert_int_equal(rng_dist_init(&d, "normal", 12, 1, 75, 0.2, 0.8), -1);
    assert_int_equal(rng_dist_init(&d, "", 12, 1, 75, 0.2, 0.8), -1);
    assert_int_equal(rng_dist_init(&d, "Uniform", 12, 1, 75, 0.2, 0.8), -1);
    assert_int_equal(rng_dist_init(&d, "gaussian", 0, 1, 75, 0.2, 0.8), -1);   /* iter */
    assert_int_equal(rng_dist_init(&d, "special", 12, 101, 75, 0.2, 0.8), -1); /* pct */
    assert_int_equal(rng_dist_init(&d, "special", 12, 1, 100, 0.2, 0.8), -1);  /* res */
    assert_int_equal(rng_dist_init(&d, "pareto", 12, 1, 75, 0.0, 0.8), -1);    /* h */
    assert_int_equal(rng_dist_init(&d, "pareto", 12, 1, 75, 1.0, 0.8), -1);
    assert_int_equal(rng_dist_init(&d, "pareto", 12, 1, 75, -0.5, 0.8), -1);
    assert_int_equal(rng_dist_init(&d, "zipfian", 12, 1, 75, 0.2, -0.1), -1); /* exp */
    assert_int_equal(rng_dist_init(&d, "special", 1, 100, 99, 0.5, 1.0), 0);  /* edges */
}

static void test_str(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 3, 0);
    const char *tmpl = "ab#@-## @@x#";
    char out[64];
    memset(out, 'Z', sizeof out);
    rng_str(&r, tmpl, out);
    assert_int_equal(strlen(out), strlen(tmpl));
    for (size_t i = 0; tmpl[i]; i++) {
        if (tmpl[i] == '#')
            assert_true(out[i] >= '0' && out[i] <= '9');
        else if (tmpl[i] == '@')
            assert_true(out[i] >= 'a' && out[i] <= 'z');
        else
            assert_int_equal(out[i], tmpl[i]);
    }
    rng_str(&r, "", out);
    assert_int_equal(out[0], '\0');

    /* every digit and letter turns up, about equally often */
    long dig[10] = {0}, let[26] = {0};
    char buf[41];
    for (int i = 0; i < 5000; i++) {
        rng_str(&r, "####################@@@@@@@@@@@@@@@@@@@@", buf);
        for (int j = 0; j < 20; j++) {
            dig[buf[j] - '0']++;
            let[buf[20 + j] - 'a']++;
        }
    }
    for (int i = 0; i < 10; i++)
        assert_true(dig[i] > 9000 && dig[i] < 11000); /* 10000 expected, sd ~95 */
    for (int i = 0; i < 26; i++)
        assert_true(let[i] > 3400 && let[i] < 4300); /* 3846 expected, sd ~61 */

    /* the same seed gives the same strings */
    struct rng a, b;
    char sa[32], sb[32];
    rng_seed(&a, 8, 8);
    rng_seed(&b, 8, 8);
    rng_str(&a, "###-@@@-###-@@@", sa);
    rng_str(&b, "###-@@@-###-@@@", sb);
    assert_string_equal(sa, sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_streams),
        cmocka_unit_test(test_uniform),
        cmocka_unit_test(test_bounds_all_kinds),
        cmocka_unit_test(test_gaussian),
        cmocka_unit_test(test_special),
        cmocka_unit_test(test_pareto),
        cmocka_unit_test(test_zipfian),
        cmocka_unit_test(test_dist_init),
        cmocka_unit_test(test_str),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
