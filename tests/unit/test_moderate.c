/*
 * test_moderate.c - empirical-Bayes moderation of a grid's variances on
 * synthetic grids with a known prior: true per-point variances drawn from a
 * scaled inverse chi-square (d0 = 10, s0 = 3%) come back as d0 ~ 10 and
 * s0 ~ 3% over 20000 points; equal noise everywhere gives a very large (or
 * infinite) d0 and every point the family's variance; noise that differs
 * widely gives a small d0, and the gate leaves the effects untouched; each
 * moderated point's figures follow from its posterior variance.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/effect.h"
#include "stats/moderate.h"
#include "stats/prng.h"
#include "stats/stats.h"

enum { REPS = 5 };

/* A point with log-sd s on both sides, no change. */
static void point(struct stats_rng *r, double s, struct stats_effect *e)
{
    double a[REPS], b[REPS];
    for (int j = 0; j < REPS; j++)
        a[j] = 1000 * exp(s * stats_rng_normal(r));
    for (int j = 0; j < REPS; j++)
        b[j] = 1000 * exp(s * stats_rng_normal(r));
    assert_int_equal(stats_effect(a, REPS, b, REPS, NULL, e), 0);
}

static void test_prior_recovered(void **state)
{
    (void)state;
    enum { G = 20000, D0 = 10 };
    struct stats_effect *e = malloc(G * sizeof *e);
    assert_non_null(e);
    struct stats_rng r;
    stats_rng_seed(&r, 3);
    for (int i = 0; i < G; i++) {
        double chi = 0; /* sigma^2 = d0 s0^2 / chi2(d0) */
        for (int k = 0; k < D0; k++) {
            double z = stats_rng_normal(&r);
            chi += z * z;
        }
        point(&r, sqrt(D0 * 0.03 * 0.03 / chi), &e[i]);
    }
    struct stats_moderation m;
    assert_int_equal(stats_moderate(e, G, 1e-9, &m), 0);
    print_message("prior recovered: d0 %.2f (10), s0 %.4f (0.03) from %zu points\n", m.d0, m.s0,
                  m.used);
    assert_int_equal(m.used, G);
    assert_true(m.d0 > 8.5 && m.d0 < 11.5);
    assert_true(fabs(m.s0 / 0.03 - 1) < 0.03);
    assert_true(m.applied);
    /* Each point: posterior variance on d0 + 8 df, its figures from it. */
    for (int i = 0; i < 5; i++) {
        double v = (e[i].sa * e[i].sa + e[i].sb * e[i].sb) / 2;
        double post = (m.d0 * m.s0 * m.s0 + 8 * v) / (m.d0 + 8);
        assert_true(e[i].moderated);
        assert_float_equal(e[i].df, m.d0 + 8, 1e-9);
        assert_float_equal(e[i].se, sqrt(post * 2 / REPS), 1e-12);
        assert_float_equal(e[i].p, 2 * stats_t_cdf(-fabs(e[i].diff / e[i].se), e[i].df), 1e-15);
        double q = stats_t_quantile(0.975, e[i].df);
        assert_float_equal(e[i].hi, expm1(e[i].diff + q * e[i].se), 1e-12);
    }
    free(e);
}

static void test_even_noise(void **state)
{
    (void)state;
    enum { G = 2000 };
    struct stats_effect *e = malloc(G * sizeof *e);
    assert_non_null(e);
    struct stats_rng r;
    stats_rng_seed(&r, 4);
    for (int i = 0; i < G; i++)
        point(&r, 0.03, &e[i]);
    struct stats_moderation m;
    assert_int_equal(stats_moderate(e, G, 0, &m), 0);
    print_message("even noise: d0 %g, s0 %.4f\n", m.d0, m.s0);
    assert_true(m.d0 > 200); /* infinite, or as good as */
    assert_true(fabs(m.s0 / 0.03 - 1) < 0.03);
    /* The df is capped at the grid's total (2000 points x 8). */
    assert_true(e[0].df <= G * 8.0);
    free(e);
}

static void test_gate_and_too_few(void **state)
{
    (void)state;
    enum { G = 48 };
    struct stats_effect e[G], before[G];
    struct stats_rng r;
    stats_rng_seed(&r, 5);
    for (int i = 0; i < G; i++) /* CV from 1% to 10%, log-uniform */
        point(&r, 0.01 * exp(stats_rng_unit(&r) * log(10.0)), &e[i]);
    memcpy(before, e, sizeof e);
    struct stats_moderation m;
    assert_int_equal(stats_moderate(e, G, 0, &m), -1);
    assert_true(m.d0 < 10);
    assert_false(m.applied);
    assert_memory_equal(e, before, sizeof e);
    /* Below the gate, a caller may still ask for it. */
    assert_int_equal(stats_moderate(e, G, m.d0 / 2, &m), 0);
    assert_true(e[0].moderated);
    /* Two points with an interval, one without: nothing to estimate from. */
    double one[] = {100}, x[] = {100, 103, 98}, y[] = {101, 99, 104};
    struct stats_effect f[3];
    stats_effect(x, 3, y, 3, NULL, &f[0]);
    stats_effect(y, 3, x, 3, NULL, &f[1]);
    stats_effect(one, 1, x, 3, NULL, &f[2]);
    struct stats_effect f0[3];
    memcpy(f0, f, sizeof f);
    assert_int_equal(stats_moderate(f, 3, 0, &m), -1);
    assert_true(isnan(m.d0));
    assert_memory_equal(f, f0, sizeof f);
    assert_int_equal(stats_moderate(f, 0, 0, &m), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prior_recovered),
        cmocka_unit_test(test_even_noise),
        cmocka_unit_test(test_gate_and_too_few),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
