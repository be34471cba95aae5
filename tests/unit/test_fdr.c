/*
 * test_fdr.c - Benjamini-Hochberg q-values against worked examples: the 15
 * p-values of Benjamini and Hochberg (1995), section 4 (four discoveries at
 * 5%), and a set whose q-values R's p.adjust(p, "BH") gives, both worked by
 * hand below; untested (NAN) points, ties, any input order, in place; and a
 * million p-values with a closed-form answer (p_i = (i/m)^2 -> q_i = i/m).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "stats/fdr.h"
#include "stats/prng.h"

/* p_(i) m / i, then the running minimum from the largest: (m = 15)
 *  1 .0015  2 .003  3 .0095  4 .035625  5 .0603->.0603  6 .0695->.063857
 *  7 .063857  8 .0645  9 .0765  10 .486  11 .581182  12 .714875  13 .753231
 *  14 .813214  15 1 */
static void test_bh_1995(void **state)
{
    (void)state;
    double p[] = {0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
                  0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0000};
    double want[] = {0.0015, 0.003, 0.0095,   0.035625, 0.0603,   0.063857, 0.063857, 0.0645,
                     0.0765, 0.486, 0.581182, 0.714875, 0.753231, 0.813214, 1};
    double q[15];
    assert_int_equal(stats_bh(p, 15, q), 0);
    for (int i = 0; i < 15; i++)
        assert_float_equal(q[i], want[i], 1e-6);
    assert_int_equal(stats_bh_count(q, 15, 0.05), 4); /* the paper rejects four */
    /* Shuffled, the same q per p. */
    double ps[15], qs[15];
    int perm[15] = {7, 14, 0, 3, 11, 5, 9, 1, 13, 2, 6, 12, 4, 10, 8};
    for (int i = 0; i < 15; i++)
        ps[i] = p[perm[i]];
    assert_int_equal(stats_bh(ps, 15, qs), 0);
    for (int i = 0; i < 15; i++)
        assert_float_equal(qs[i], want[perm[i]], 1e-6);
}

/* p.adjust(c(.001, .008, .039, .041, .042, .06, .074, .205), "BH"):
 * p m / i = .008 .032 .104 .082 .0672 .08 .084571 .205, running minimum
 * from the end: .008 .032 .0672 .0672 .0672 .08 .084571 .205. And
 * p.adjust(c(.01, .02, .03, .04, .05), "BH") is .05 five times. */
static void test_bh_p_adjust(void **state)
{
    (void)state;
    double p[] = {0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205};
    double want[] = {0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.0845714, 0.205};
    double q[8];
    assert_int_equal(stats_bh(p, 8, q), 0);
    for (int i = 0; i < 8; i++)
        assert_float_equal(q[i], want[i], 1e-7);
    double p5[] = {0.01, 0.02, 0.03, 0.04, 0.05};
    assert_int_equal(stats_bh(p5, 5, p5), 0); /* in place */
    for (int i = 0; i < 5; i++)
        assert_float_equal(p5[i], 0.05, 1e-15);
}

static void test_bh_untested_ties_bounds(void **state)
{
    (void)state;
    /* NAN: not tested, out of m. The tested ones are {.01, .04, .04}: m = 3. */
    double p[] = {0.04, NAN, 0.01, 0.04, NAN};
    double q[5];
    assert_int_equal(stats_bh(p, 5, q), 0);
    assert_true(isnan(q[1]) && isnan(q[4]));
    assert_float_equal(q[2], 0.03, 1e-15);
    assert_float_equal(q[0], 0.04, 1e-15); /* ties share a q */
    assert_float_equal(q[3], 0.04, 1e-15);
    /* Clipped at 1, monotone. */
    double big[] = {0.9, 0.95, 0.99};
    assert_int_equal(stats_bh(big, 3, q), 0);
    for (int i = 0; i < 3; i++)
        assert_true(q[i] <= 1);
    assert_float_equal(q[0], 0.99, 1e-15);
    /* Not a p-value: refused, q untouched. */
    double bad[] = {0.5, 1.5}, qb[2] = {7, 7};
    assert_int_equal(stats_bh(bad, 2, qb), -1);
    assert_float_equal(qb[0], 7, 0);
    double neg[] = {-0.1};
    assert_int_equal(stats_bh(neg, 1, qb), -1);
    /* Nothing tested: all NAN, no crash. */
    double none[] = {NAN, NAN};
    assert_int_equal(stats_bh(none, 2, q), 0);
    assert_true(isnan(q[0]) && isnan(q[1]));
    assert_int_equal(stats_bh(none, 0, q), 0);
    assert_int_equal(stats_bh_count(q, 2, 0.05), 0);
    /* Intervals for BH-selected points: 1 - R f / m. */
    assert_float_equal(stats_fcr_conf(4, 48, 0.05), 1 - 4 * 0.05 / 48, 1e-15);
    assert_float_equal(stats_fcr_conf(0, 48, 0.05), 0.95, 1e-15);
}

/* A million p-values p_i = (i/m)^2 in shuffled order: p_(j) m / j = j / m
 * grows with j, so q_i = i / m exactly up to rounding. */
static void test_bh_million(void **state)
{
    (void)state;
    enum { M = 1000000 };
    double *p = malloc(M * sizeof *p), *q = malloc(M * sizeof *q);
    size_t *idx = malloc(M * sizeof *idx);
    assert_non_null(p);
    assert_non_null(q);
    assert_non_null(idx);
    for (size_t i = 0; i < M; i++)
        idx[i] = i + 1;
    struct stats_rng r;
    stats_rng_seed(&r, 5);
    for (size_t i = M - 1; i > 0; i--) {
        size_t j = stats_rng_below(&r, i + 1), t = idx[i];
        idx[i] = idx[j], idx[j] = t;
    }
    for (size_t i = 0; i < M; i++)
        p[i] = ((double)idx[i] / M) * ((double)idx[i] / M);
    assert_int_equal(stats_bh(p, M, q), 0);
    double worst = 0;
    for (size_t i = 0; i < M; i++)
        worst = fmax(worst, fabs(q[i] - (double)idx[i] / M));
    assert_true(worst < 1e-12);
    /* q_i = i/m up to rounding: i = m/20 may land a hair either side of 0.05 */
    assert_int_equal(stats_bh_count(q, M, 0.05 + 1e-12), M / 20);
    free(idx);
    free(q);
    free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bh_1995),
        cmocka_unit_test(test_bh_p_adjust),
        cmocka_unit_test(test_bh_untested_ties_bounds),
        cmocka_unit_test(test_bh_million),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
