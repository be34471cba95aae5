/*
 * test_pooled.c - one change pooled over points from their ratios: the
 * kernels study's three points (-11%, +43%, +35%, one boot each) pool to
 * +19.8% with a 95% interval of -37.0%..+127.8% (worked below), which is
 * "not established"; ten points at +20% +- 1% are established; one unit,
 * equal ratios and bad ratios give no interval; points or boots as the unit.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "stats/pooled.h"

/* logs: -0.116534, 0.357674, 0.300105; mean 0.180415, sd 0.258771,
 * se 0.149402; t(0.975, 2) = 4.302653: 0.180415 -+ 0.642823, so
 * exp() - 1 = 0.197714, -0.370235 .. 1.277865. */
static void test_three_disagreeing_points(void **state)
{
    (void)state;
    double r[] = {0.89, 1.43, 1.35};
    struct stats_pooled p;
    assert_int_equal(stats_pooled(r, 3, 0, &p), 0);
    assert_int_equal(p.why, STATS_POOLED_OK);
    assert_int_equal(p.m, 3);
    assert_float_equal(p.est, 0.197714, 1e-6);
    assert_float_equal(p.lo, -0.370235, 1e-6);
    assert_float_equal(p.hi, 1.277865, 1e-6);
    assert_float_equal(p.df, 2, 0);
    assert_float_equal(p.se, 0.149402, 1e-6);
    assert_false(p.established);
}

static void test_ten_agreeing_points(void **state)
{
    (void)state;
    double r[] = {1.20, 1.21, 1.19, 1.205, 1.195, 1.20, 1.21, 1.19, 1.202, 1.198};
    struct stats_pooled p;
    assert_int_equal(stats_pooled(r, 10, 0.95, &p), 0);
    assert_true(p.established);
    assert_float_equal(p.est, 0.20, 0.002);
    assert_true(p.lo > 0.19 && p.hi < 0.21);
    /* A loss established the same way. */
    double d[] = {0.80, 0.81, 0.79, 0.805};
    assert_int_equal(stats_pooled(d, 4, 0.95, &p), 0);
    assert_true(p.established && p.hi < 0);
}

static void test_no_interval(void **state)
{
    (void)state;
    struct stats_pooled p;
    double one[] = {1.35};
    assert_int_equal(stats_pooled(one, 1, 0, &p), -1);
    assert_int_equal(p.why, STATS_POOLED_ONE);
    assert_float_equal(p.est, 0.35, 1e-12);
    assert_true(isnan(p.lo) && isnan(p.hi));
    assert_false(p.established);
    double same[] = {1.2, 1.2, 1.2};
    assert_int_equal(stats_pooled(same, 3, 0, &p), -1);
    assert_int_equal(p.why, STATS_POOLED_NO_SPREAD);
    assert_false(p.established);
    double bad[] = {1.1, 0, 1.2};
    assert_int_equal(stats_pooled(bad, 3, 0, &p), -1);
    assert_int_equal(p.why, STATS_POOLED_BAD);
    assert_true(isnan(p.est));
    double inf[] = {1.1, INFINITY};
    assert_int_equal(stats_pooled(inf, 2, 0, &p), -1);
    assert_int_equal(stats_pooled(inf, 0, 0, &p), -1);
    assert_int_equal(p.why, STATS_POOLED_BAD);
}

/* Three points, two boots each. By point: the boots' log ratios are
 * averaged first, 3 units, df 2. By boot: 6 units, df 5 - narrower, and
 * right only when boots are independent replicates. */
static void test_units(void **state)
{
    (void)state;
    double p1[] = {0.88, 0.90}, p2[] = {1.40, 1.46}, p3[] = {1.33, 1.37};
    const double *r[] = {p1, p2, p3};
    size_t n[] = {2, 2, 2};
    struct stats_pooled pt, bt;
    assert_int_equal(stats_pooled_groups(r, n, 3, STATS_POOL_POINTS, 0, &pt), 0);
    assert_int_equal(stats_pooled_groups(r, n, 3, STATS_POOL_BOOTS, 0, &bt), 0);
    assert_int_equal(pt.m, 3);
    assert_int_equal(bt.m, 6);
    assert_float_equal(pt.df, 2, 0);
    assert_float_equal(bt.df, 5, 0);
    assert_float_equal(pt.est, bt.est, 1e-12); /* equal boots per point: same centre */
    assert_true(bt.hi - bt.lo < pt.hi - pt.lo);
    assert_false(pt.established);
    /* By point, each point's mean log ratio: the same as pooling those means. */
    double means[] = {sqrt(0.88 * 0.90), sqrt(1.40 * 1.46), sqrt(1.33 * 1.37)};
    struct stats_pooled m;
    assert_int_equal(stats_pooled(means, 3, 0, &m), 0);
    assert_float_equal(m.lo, pt.lo, 1e-12);
    assert_float_equal(m.hi, pt.hi, 1e-12);
    /* A point without a boot pair is no unit; a bad ratio spoils the lot. */
    size_t n0[] = {2, 0, 2};
    assert_int_equal(stats_pooled_groups(r, n0, 3, STATS_POOL_POINTS, 0, &pt), 0);
    assert_int_equal(pt.m, 2);
    double badp[] = {1.1, -1};
    const double *rb[] = {p1, badp};
    assert_int_equal(stats_pooled_groups(rb, n, 2, STATS_POOL_POINTS, 0, &pt), -1);
    assert_int_equal(pt.why, STATS_POOLED_BAD);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_disagreeing_points),
        cmocka_unit_test(test_ten_agreeing_points),
        cmocka_unit_test(test_no_interval),
        cmocka_unit_test(test_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
