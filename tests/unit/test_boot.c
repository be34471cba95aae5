/*
 * test_boot.c - the seeded bootstrap and a curve's quantities: the bootstrap
 * of a mean against its known spread; the percentile interval's ranks; a
 * USL curve (lambda 1000, sigma 0.02, kappa 0.002 at 1..64 threads: peak
 * 9360 at 24, knee at 24) under 0.1% noise gives tight intervals around
 * the truth; the same seed gives the same intervals byte for byte; a curve
 * whose two top points are equal reports both thread counts for its peak;
 * the ratio of two curves' peaks; a group of one value is flagged (min_n).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "stats/boot.h"
#include "stats/curveboot.h"
#include "stats/prng.h"
#include "stats/stats.h"

static int mean_stat(const double *const *x, const size_t *n, size_t k, void *ctx, double *out)
{
    (void)k, (void)ctx;
    out[0] = stats_mean(x[0], n[0]);
    out[1] = out[0] > 5.5 ? out[0] : NAN; /* defined on about half the resamples */
    return 0;
}

static int reject_stat(const double *const *x, const size_t *n, size_t k, void *ctx, double *out)
{
    (void)x, (void)n, (void)k, (void)ctx;
    out[0] = 1;
    return -1;
}

static void test_boot_mean(void **state)
{
    (void)state;
    double v[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const double *x[] = {v};
    size_t n[] = {10};
    struct stats_boot_opt o = {.reps = 4000, .seed = 1};
    struct stats_interval ci[2];
    assert_int_equal(stats_boot(x, n, 1, mean_stat, NULL, 2, &o, ci, NULL), 0);
    /* The resampled mean has sd sqrt(8.25 / 10) = 0.908: 5.5 -+ 1.96 x 0.908. */
    assert_float_equal(ci[0].est, 5.5, 1e-12);
    assert_float_equal(ci[0].lo, 5.5 - 1.78, 0.15);
    assert_float_equal(ci[0].hi, 5.5 + 1.78, 0.15);
    assert_int_equal(ci[0].valid, 4000);
    assert_int_equal(ci[0].reps, 4000);
    assert_int_equal(ci[0].min_n, 10);
    /* NAN outputs stay out: about half valid, all above 5.5. */
    assert_true(isnan(ci[1].est));
    assert_true(ci[1].valid > 1600 && ci[1].valid < 2400);
    assert_true(ci[1].lo > 5.5);
    /* A statistic refusing every sample: nothing valid, NAN interval. */
    assert_int_equal(stats_boot(x, n, 1, reject_stat, NULL, 1, &o, ci, NULL), 0);
    assert_int_equal(ci[0].valid, 0);
    assert_true(isnan(ci[0].lo) && isnan(ci[0].hi) && isnan(ci[0].est));
    /* Bad input. */
    size_t zero[] = {0};
    assert_int_equal(stats_boot(x, zero, 1, mean_stat, NULL, 2, &o, ci, NULL), -1);
    assert_int_equal(stats_boot(x, n, 0, mean_stat, NULL, 2, &o, ci, NULL), -1);
    /* The draws are the resamples' outputs, row by row. */
    double draws[2 * 50];
    o.reps = 50;
    assert_int_equal(stats_boot(x, n, 1, mean_stat, NULL, 2, &o, ci, draws), 0);
    for (int r = 0; r < 50; r++) {
        assert_true(draws[2 * r] >= 1 && draws[2 * r] <= 10);
        assert_true(isnan(draws[2 * r + 1]) || draws[2 * r + 1] == draws[2 * r]);
    }
}

static void test_percentile_ranks(void **state)
{
    (void)state;
    double v[1000];
    for (int i = 0; i < 1000; i++)
        v[i] = 1000 - i; /* any order */
    double lo, hi;
    stats_percentile_interval(v, 1000, 0.95, &lo, &hi);
    assert_float_equal(lo, 25, 0); /* the 25th from each end */
    assert_float_equal(hi, 976, 0);
    stats_percentile_interval(v, 10, 0.95, &lo, &hi);
    assert_float_equal(lo, 1, 0);
    assert_float_equal(hi, 10, 0);
    double one = 7;
    stats_percentile_interval(&one, 1, 0.95, &lo, &hi);
    assert_float_equal(lo, 7, 0);
    assert_float_equal(hi, 7, 0);
    stats_percentile_interval(v, 0, 0.95, &lo, &hi);
    assert_true(isnan(lo) && isnan(hi));
}

enum { K = 10, REPS = 5 };
static const double threads[K] = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64};

static double usl(double n)
{
    return 1000 * n / (1 + 0.02 * (n - 1) + 0.002 * n * (n - 1));
}

/* A curve of k points, REPS lognormal repeats each at log-sd s around y[]. */
static void make_curve(struct stats_rng *r, const double *y, size_t k, double s, double buf[][REPS],
                       const double **rows, size_t *nx)
{
    for (size_t i = 0; i < k; i++) {
        for (int j = 0; j < REPS; j++)
            buf[i][j] = y[i] * exp(s * stats_rng_normal(r));
        rows[i] = buf[i];
        nx[i] = REPS;
    }
}

static void test_curve_known(void **state)
{
    (void)state;
    double y[K], buf[K][REPS];
    const double *rows[K];
    size_t nx[K];
    for (int i = 0; i < K; i++)
        y[i] = usl(threads[i]);
    struct stats_rng r;
    stats_rng_seed(&r, 9);
    make_curve(&r, y, K, 0.001, buf, rows, nx);
    struct stats_curve c = {.k = K, .n = threads, .x = rows, .nx = nx, .cpus = 8};
    struct stats_boot_opt o = {.reps = 500, .seed = 123};
    struct stats_curve_ci ci;
    double peak_share[K], knee_share[K];
    assert_int_equal(stats_curve_boot(&c, &o, &ci, peak_share, knee_share), 0);
    print_message("peak %.0f [%.0f, %.0f] at %g..%g; knee %g..%g; sigma %.4f [%.4f, %.4f], "
                  "kappa %.5f [%.5f, %.5f] (%zu/%zu valid); eff %.3f [%.3f, %.3f]\n",
                  ci.peak.est, ci.peak.lo, ci.peak.hi, ci.peak_n.lo, ci.peak_n.hi, ci.knee_n.lo,
                  ci.knee_n.hi, ci.sigma.est, ci.sigma.lo, ci.sigma.hi, ci.kappa.est, ci.kappa.lo,
                  ci.kappa.hi, ci.sigma.valid, ci.sigma.reps, ci.eff.est, ci.eff.lo, ci.eff.hi);
    double truth = usl(24);
    assert_true(ci.peak.lo <= truth * 1.001 && ci.peak.hi >= truth * 0.999);
    assert_true(ci.peak.hi - ci.peak.lo < 0.003 * truth);
    assert_true(ci.peak.lo <= ci.peak.est && ci.peak.est <= ci.peak.hi);
    assert_float_equal(ci.peak_n.lo, 24, 0);
    assert_float_equal(ci.peak_n.hi, 24, 0);
    assert_float_equal(ci.knee_n.lo, 24, 0);
    assert_float_equal(ci.knee_n.hi, 24, 0);
    assert_float_equal(peak_share[6], 1, 0);
    assert_float_equal(knee_share[6], 1, 0);
    assert_float_equal(peak_share[5], 0, 0);
    assert_int_equal(ci.sigma.valid, 500);
    assert_true(ci.sigma.lo <= 0.02 && 0.02 <= ci.sigma.hi && ci.sigma.hi - ci.sigma.lo < 0.004);
    assert_true(ci.kappa.lo <= 0.002 && 0.002 <= ci.kappa.hi);
    assert_true(ci.kappa.hi - ci.kappa.lo < 0.0002);
    /* Efficiency at the peak against the ideal bent at 8 CPUs: 9360 / 8000. */
    assert_float_equal(ci.eff.est, truth / 8000, 0.005);
    assert_int_equal(ci.peak.min_n, REPS);

    /* Same seed, same intervals, byte for byte; another seed moves them. */
    struct stats_curve_ci again, other;
    assert_int_equal(stats_curve_boot(&c, &o, &again, NULL, NULL), 0);
    assert_memory_equal(&ci, &again, sizeof ci);
    o.seed = 124;
    assert_int_equal(stats_curve_boot(&c, &o, &other, NULL, NULL), 0);
    assert_true(other.peak.lo != ci.peak.lo || other.peak.hi != ci.peak.hi);
}

/* Two top points equal in truth (8 and 16 threads at 5000, 3% noise): the
 * peak moves between them from resample to resample, and says so. */
static void test_peak_swaps(void **state)
{
    (void)state;
    const double n[] = {1, 2, 4, 8, 16};
    const double y[] = {1000, 1900, 3400, 5000, 5000};
    double buf[5][REPS];
    const double *rows[5];
    size_t nx[5];
    struct stats_rng r;
    stats_rng_seed(&r, 10);
    make_curve(&r, y, 5, 0.03, buf, rows, nx);
    struct stats_curve c = {.k = 5, .n = n, .x = rows, .nx = nx, .median = 1};
    struct stats_boot_opt o = {.reps = 1000, .seed = 5};
    struct stats_curve_ci ci;
    double share[5];
    assert_int_equal(stats_curve_boot(&c, &o, &ci, share, NULL), 0);
    print_message("peak at 8 in %.3f, at 16 in %.3f of resamples; interval %g..%g\n", share[3],
                  share[4], ci.peak_n.lo, ci.peak_n.hi);
    assert_true(share[3] > 0.1 && share[4] > 0.1);
    assert_float_equal(share[3] + share[4], 1, 1e-12);
    assert_float_equal(ci.peak_n.lo, 8, 0);
    assert_float_equal(ci.peak_n.hi, 16, 0);
    /* Five points: the USL fit may be valid, but k >= 4 is needed, and here it is. */
    assert_true(ci.sigma.valid <= ci.sigma.reps);
}

/* B's curve is A's x 1.2: the peak ratio is +20%, tightly. One value per
 * point gives an interval of zero width, and min_n says why. */
static void test_peak_ratio(void **state)
{
    (void)state;
    double ya[K], yb[K], ba[K][REPS], bb[K][REPS];
    const double *ra[K], *rb[K];
    size_t na[K], nb[K];
    for (int i = 0; i < K; i++)
        ya[i] = usl(threads[i]), yb[i] = 1.2 * ya[i];
    struct stats_rng r;
    stats_rng_seed(&r, 11);
    make_curve(&r, ya, K, 0.002, ba, ra, na);
    make_curve(&r, yb, K, 0.002, bb, rb, nb);
    struct stats_curve a = {.k = K, .n = threads, .x = ra, .nx = na};
    struct stats_curve b = {.k = K, .n = threads, .x = rb, .nx = nb};
    struct stats_boot_opt o = {.reps = 500, .seed = 1};
    struct stats_interval ci;
    assert_int_equal(stats_peak_ratio_boot(&a, &b, &o, &ci), 0);
    assert_float_equal(ci.est, 0.2, 0.003);
    assert_true(ci.lo <= 0.2 && ci.hi >= 0.2 && ci.hi - ci.lo < 0.01);
    for (int i = 0; i < K; i++)
        na[i] = nb[i] = 1;
    assert_int_equal(stats_peak_ratio_boot(&a, &b, &o, &ci), 0);
    assert_int_equal(ci.min_n, 1);
    assert_float_equal(ci.lo, ci.hi, 0);
    struct stats_curve empty = {.k = 0};
    assert_int_equal(stats_peak_ratio_boot(&empty, &b, &o, &ci), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boot_mean),   cmocka_unit_test(test_percentile_ranks),
        cmocka_unit_test(test_curve_known), cmocka_unit_test(test_peak_swaps),
        cmocka_unit_test(test_peak_ratio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
