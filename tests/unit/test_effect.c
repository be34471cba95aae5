/*
 * test_effect.c - one point's change of B against A on synthetic data with
 * known answers: a known ratio without noise comes back exact; a symmetric
 * case matches a hand computation (Welch on the logs, df 4, whose t cdf has a
 * closed form); the interval covers the true change in ~95% of 2000
 * simulated lognormal trials; the MDE is its formula, and a change of the
 * MDE's size is found about as often as the power says; too little data
 * gives NAN figures and a reason; the repeats estimate decides the point.
 * Seeds are fixed: the simulations give the same counts on every run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "stats/effect.h"
#include "stats/prng.h"
#include "stats/stats.h"

/* n lognormal values of median m and log-scale sd s. */
static void lognormal(struct stats_rng *r, double *x, size_t n, double m, double s)
{
    for (size_t i = 0; i < n; i++)
        x[i] = m * exp(s * stats_rng_normal(r));
}

static void test_exact_ratio(void **state)
{
    (void)state;
    struct stats_effect e;
    double a[] = {100, 100, 100}, b[] = {110, 110, 110};
    assert_int_equal(stats_effect(a, 3, b, 3, NULL, &e), -1);
    assert_int_equal(e.why, STATS_EFFECT_NO_SPREAD);
    assert_float_equal(e.est, 0.10, 1e-14);
    assert_true(isnan(e.lo) && isnan(e.hi) && isnan(e.p) && isnan(e.mde));
    /* The same ratio on every repeat, with spread: the estimate is the ratio. */
    double a2[] = {900, 1000, 1100, 1234.5}, b2[4];
    for (int i = 0; i < 4; i++)
        b2[i] = a2[i] * 0.8;
    assert_int_equal(stats_effect(a2, 4, b2, 4, NULL, &e), 0);
    assert_float_equal(e.est, -0.20, 1e-14);
    assert_float_equal(e.sa, e.sb, 1e-14);
    assert_true(e.lo < -0.2 && e.hi > -0.2);
    assert_float_equal(e.df, 6, 1e-9); /* equal spreads and sizes: na + nb - 2 */
}

/* logs of A: log 100 + {0, 0.1, -0.1}; of B: log 100 + {0.2, 0.3, 0.1}.
 * diff 0.2; s^2 0.01 a side; se = sqrt(0.02 / 3) = 0.0816497; df = 4;
 * t = sqrt(6) = 2.4494897. For 4 df, F(t) = 1/2 + 3/8 u (1 - t^2 / (12 w)),
 * w = 1 + t^2 / 4 = 2.5, u = t / sqrt(w) = 1.5491933: F = 0.9647580, p =
 * 0.0704840. t(0.975, 4) = 2.7764451, t(0.8, 4) = 0.9409646 (tables):
 * CI exp(0.2 -+ 0.2266968) - 1 = -0.0263426 .. 0.5321865; est exp(0.2) - 1 =
 * 0.2214028; MDE exp(3.7174097 x 0.0816497) - 1 = 0.3546258. */
static void test_hand_computed(void **state)
{
    (void)state;
    double a[] = {100, 100 * exp(0.1), 100 * exp(-0.1)};
    double b[] = {100 * exp(0.2), 100 * exp(0.3), 100 * exp(0.1)};
    struct stats_effect e;
    assert_int_equal(stats_effect(a, 3, b, 3, NULL, &e), 0);
    assert_int_equal(e.why, STATS_EFFECT_OK);
    assert_float_equal(e.diff, 0.2, 1e-12);
    assert_float_equal(e.est, 0.2214028, 1e-7);
    assert_float_equal(e.sa, 0.1, 1e-12);
    assert_float_equal(e.se, 0.0816497, 1e-7);
    assert_float_equal(e.df, 4, 1e-9);
    assert_float_equal(e.p, 0.0704840, 1e-7);
    assert_float_equal(e.lo, -0.0263426, 1e-7);
    assert_float_equal(e.hi, 0.5321865, 1e-7);
    assert_float_equal(e.mde, 0.3546258, 1e-7);
    /* Swapping the sides mirrors everything on the log scale. */
    struct stats_effect r;
    assert_int_equal(stats_effect(b, 3, a, 3, NULL, &r), 0);
    assert_float_equal(log1p(r.est), -0.2, 1e-12);
    assert_float_equal(log1p(r.lo), -log1p(e.hi), 1e-12);
    assert_float_equal(r.p, e.p, 1e-15);
    /* Another level: 90% -> t(0.95, 4) = 2.1318468. */
    struct stats_effect_opt o = {.conf = 0.90};
    assert_int_equal(stats_effect(a, 3, b, 3, &o, &e), 0);
    assert_float_equal(e.hi, expm1(0.2 + 2.1318468 * 0.0816497), 1e-6);
}

static void test_no_interval(void **state)
{
    (void)state;
    struct stats_effect e;
    double a[] = {100}, b[] = {120, 118, 125};
    assert_int_equal(stats_effect(a, 1, b, 3, NULL, &e), -1);
    assert_int_equal(e.why, STATS_EFFECT_ONE_RUN);
    assert_true(e.est > 0.18 && e.est < 0.22); /* an estimate, but no interval */
    assert_true(isnan(e.lo) && isnan(e.hi) && isnan(e.p) && isnan(e.se));
    assert_true(isnan(e.sa) && e.sb > 0);
    double bad[] = {100, 0, 90};
    assert_int_equal(stats_effect(bad, 3, b, 3, NULL, &e), -1);
    assert_int_equal(e.why, STATS_EFFECT_BAD);
    assert_true(isnan(e.est));
    double nan[] = {100, NAN};
    assert_int_equal(stats_effect(b, 3, nan, 2, NULL, &e), -1);
    assert_int_equal(e.why, STATS_EFFECT_BAD);
    assert_int_equal(stats_effect(b, 3, a, 0, NULL, &e), -1);
    assert_int_equal(e.why, STATS_EFFECT_BAD);
    double neg[] = {-5, 3};
    assert_int_equal(stats_effect(neg, 2, b, 3, NULL, &e), -1);
    assert_int_equal(e.why, STATS_EFFECT_BAD);
    /* One side constant, the other not: an interval with the other side's df. */
    double c[] = {100, 100, 100};
    assert_int_equal(stats_effect(c, 3, b, 3, NULL, &e), 0);
    assert_float_equal(e.df, 2, 1e-9);
}

/* Welch on lognormal data with unequal spreads and sizes: the 95% interval
 * covers the true +10% in 95% of trials (Monte-Carlo sd 0.5% at 2000). */
static void test_coverage(void **state)
{
    (void)state;
    struct stats_rng r;
    stats_rng_seed(&r, 2024);
    enum { TRIALS = 2000 };
    int cover = 0, cover90 = 0;
    struct stats_effect_opt o90 = {.conf = 0.90};
    for (int t = 0; t < TRIALS; t++) {
        double a[5], b[8];
        lognormal(&r, a, 5, 1000, 0.03);
        lognormal(&r, b, 8, 1100, 0.05);
        struct stats_effect e;
        assert_int_equal(stats_effect(a, 5, b, 8, NULL, &e), 0);
        cover += e.lo <= 0.1 && 0.1 <= e.hi;
        assert_int_equal(stats_effect(a, 5, b, 8, &o90, &e), 0);
        cover90 += e.lo <= 0.1 && 0.1 <= e.hi;
    }
    double f = (double)cover / TRIALS, f90 = (double)cover90 / TRIALS;
    print_message("coverage: 95%% interval %.4f, 90%% interval %.4f over %d trials\n", f, f90,
                  TRIALS);
    assert_true(f >= 0.935 && f <= 0.965);
    assert_true(f90 >= 0.88 && f90 <= 0.92);
}

/* The MDE is (t(1 - alpha/2) + t(power)) se at the point's df; and a true
 * change of the size the MDE names for the true noise is found (p < alpha)
 * in about `power` of trials (the t approximation to the noncentral t is a
 * little optimistic at small df, hence the tolerance). */
static void test_mde(void **state)
{
    (void)state;
    double a[] = {100, 103, 98, 101, 99}, b[] = {104, 109, 101, 107, 105, 103};
    struct stats_effect e;
    assert_int_equal(stats_effect(a, 5, b, 6, NULL, &e), 0);
    double m = (stats_t_quantile(0.975, e.df) + stats_t_quantile(0.8, e.df)) * e.se;
    assert_float_equal(e.mde, expm1(m), 1e-12);
    struct stats_effect_opt o = {.alpha = 0.01, .power = 0.9};
    assert_int_equal(stats_effect(a, 5, b, 6, &o, &e), 0);
    m = (stats_t_quantile(0.995, e.df) + stats_t_quantile(0.9, e.df)) * e.se;
    assert_float_equal(e.mde, expm1(m), 1e-12);

    /* 5 a side at log-sd 0.03: se 0.03 sqrt(2/5), df 8. */
    double se = 0.03 * sqrt(2.0 / 5), df = 8;
    double shift = (stats_t_quantile(0.975, df) + stats_t_quantile(0.8, df)) * se;
    struct stats_rng r;
    stats_rng_seed(&r, 77);
    int found = 0;
    enum { TRIALS = 2000 };
    for (int t = 0; t < TRIALS; t++) {
        double x[5], y[5];
        lognormal(&r, x, 5, 1000, 0.03);
        lognormal(&r, y, 5, 1000 * exp(shift), 0.03);
        assert_int_equal(stats_effect(x, 5, y, 5, NULL, &e), 0);
        found += e.p < 0.05;
    }
    double pw = (double)found / TRIALS;
    print_message("a change of the MDE (%.2f%%) found in %.4f of %d trials\n", 100 * expm1(shift),
                  pw, TRIALS);
    assert_true(pw >= 0.72 && pw <= 0.86);
}

/* The repeats estimate is the smallest m whose half-width clears the nearer
 * threshold, at m's df; it saturates and gives up where it must. */
static void test_repeats(void **state)
{
    (void)state;
    double a[] = {100, 103, 97}, b[] = {112, 116, 108};
    struct stats_effect e;
    assert_int_equal(stats_effect(a, 3, b, 3, NULL, &e), 0);
    size_t m = stats_effect_repeats(&e, 0.05, 100);
    assert_true(m > 3 && m <= 100);
    double v = e.sa * e.sa + e.sb * e.sb,
           w = (e.sa * e.sa * e.sa * e.sa + e.sb * e.sb * e.sb * e.sb);
    double dist = fmin(fabs(e.diff - log(1.05)), fabs(e.diff - log(0.95)));
    double hw_m = stats_t_quantile(0.975, (double)(m - 1) * v * v / w) * sqrt(v / (double)m);
    double hw_m1 = stats_t_quantile(0.975, (double)(m - 2) * v * v / w) * sqrt(v / (double)(m - 1));
    assert_true(hw_m < dist);
    assert_true(hw_m1 >= dist);
    /* Exactly on the threshold: no count decides it. */
    double c[] = {100, 101, 99}, d[] = {105, 106.05, 103.95};
    assert_int_equal(stats_effect(c, 3, d, 3, NULL, &e), 0);
    assert_int_equal(stats_effect_repeats(&e, 0.05, 100), 101);
    /* A cap is a cap. */
    assert_int_equal(stats_effect_repeats(&e, 0.05, 20), 21);
    /* No spread anywhere, or nothing measured: nothing to say. */
    double k1[] = {100}, k2[] = {110};
    assert_int_equal(stats_effect(k1, 1, k2, 1, NULL, &e), -1);
    assert_int_equal(stats_effect_repeats(&e, 0.05, 100), 0);
    /* One run on a side: the other side's spread stands for both. */
    double one[] = {100}, many[] = {101, 104, 98, 103};
    assert_int_equal(stats_effect(one, 1, many, 4, NULL, &e), -1);
    m = stats_effect_repeats(&e, 0.05, 100);
    assert_true(m >= 2 && m <= 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_ratio), cmocka_unit_test(test_hand_computed),
        cmocka_unit_test(test_no_interval), cmocka_unit_test(test_coverage),
        cmocka_unit_test(test_mde),         cmocka_unit_test(test_repeats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
