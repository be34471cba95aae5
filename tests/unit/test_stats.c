/*
 * test_stats.c - stats against values known from elsewhere: Student t table
 * quantiles, the three worked Welch's t-test examples of the Wikipedia
 * article (statistic, Welch-Satterthwaite df, p), a USL fit that must recover
 * the sigma/kappa of a synthetic curve, and the reference's relative %.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "stats/stats.h"

static void test_summary(void **state)
{
    (void)state;
    double x[] = {5, 1, 4, 2, 3};
    struct stats_summary s;
    stats_summarize(x, 5, &s);
    assert_float_equal(s.median, 3, 1e-12);
    assert_float_equal(s.mean, 3, 1e-12);
    assert_float_equal(s.sd, sqrt(2.5), 1e-12);
    assert_float_equal(s.min, 1, 0);
    assert_float_equal(s.max, 5, 0);
    /* t(0.975, 4) = 2.776445; half-width = 2.776445 * sqrt(2.5) / sqrt(5) */
    assert_float_equal(s.ci_hi - 3, 2.776445 * sqrt(0.5), 1e-5);
    double even[] = {4, 1, 3, 2};
    assert_float_equal(stats_median(even, 4), 2.5, 1e-12);
    assert_float_equal(stats_median(even, 0), 0, 0);
    stats_summarize(even, 1, &s);
    assert_float_equal(s.ci_lo, 4, 0);
    assert_float_equal(s.ci_hi, 4, 0);
}

static void test_t_quantiles(void **state)
{
    (void)state;
    /* Two-sided 95% critical values from any Student t table. */
    assert_float_equal(stats_t_quantile(0.975, 1), 12.706205, 1e-5);
    assert_float_equal(stats_t_quantile(0.975, 2), 4.302653, 1e-5);
    assert_float_equal(stats_t_quantile(0.975, 10), 2.228139, 1e-5);
    assert_float_equal(stats_t_quantile(0.975, 30), 2.042272, 1e-5);
    assert_float_equal(stats_t_quantile(0.975, 1e7), 1.959964, 1e-5);
    assert_float_equal(stats_t_quantile(0.995, 5), 4.032143, 1e-5);
    assert_float_equal(stats_t_quantile(0.025, 10), -2.228139, 1e-5);
    assert_float_equal(stats_t_cdf(0, 7), 0.5, 1e-12);
    assert_float_equal(stats_t_cdf(1, 1), 0.75, 1e-12); /* Cauchy */
}

/* Wikipedia, "Welch's t-test", Examples 1-3 (values printed to 2-3 digits). */
static void test_welch_examples(void **state)
{
    (void)state;
    struct stats_welch w;
    double a1[] = {27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
                   21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4};
    double a2[] = {27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
                   24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4};
    assert_int_equal(stats_welch(a1, 15, a2, 15, &w), 0);
    assert_float_equal(w.t, -2.46, 0.005);
    assert_float_equal(w.df, 24.99, 0.005);
    assert_float_equal(w.p, 0.021, 0.0005);
    assert_true(w.significant);

    double b1[] = {17.2, 20.9, 22.6, 18.1, 21.7, 21.4, 23.5, 24.2, 14.7, 21.8};
    double b2[] = {21.5, 22.8, 21.0, 23.0, 21.6, 23.6, 22.5, 20.7, 23.4, 21.8,
                   20.7, 21.7, 21.5, 22.5, 23.6, 21.5, 22.5, 23.5, 21.5, 21.8};
    assert_int_equal(stats_welch(b1, 10, b2, 20, &w), 0);
    assert_float_equal(w.t, -1.57, 0.005);
    assert_float_equal(w.df, 9.9, 0.05);
    assert_float_equal(w.p, 0.149, 0.0005);
    /* Not significant, although Student's pooled test says p = 0.045: `ministat -A`
     * on these two samples prints "Difference at 95.0% confidence ... pooled s". */
    assert_false(w.significant);

    double c1[] = {19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0};
    double c2[] = {28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
                   23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3};
    assert_int_equal(stats_welch(c1, 10, c2, 20, &w), 0);
    assert_float_equal(w.t, -2.22, 0.01);
    assert_float_equal(w.df, 24.5, 0.05);
    assert_float_equal(w.p, 0.036, 0.001);
    assert_true(w.significant);
    /* The critical-value check and the p-value agree. */
    assert_float_equal(w.ci, stats_t_quantile(0.975, w.df) * fabs(w.diff / w.t), 1e-9);

    /* Degenerate input. */
    double one[] = {1};
    assert_int_equal(stats_welch(one, 1, a1, 15, &w), -1);
    double k1[] = {5, 5, 5}, k2[] = {5, 5}, k3[] = {6, 6};
    assert_int_equal(stats_welch(k1, 3, k2, 2, &w), 0);
    assert_false(w.significant);
    assert_int_equal(stats_welch(k1, 3, k3, 2, &w), 0);
    assert_true(w.significant);
}

static void test_relpct(void **state)
{
    (void)state;
    long long r;
    assert_int_equal(stats_relpct(4055350, 1217433, &r), 0);
    assert_int_equal(r, 233);
    assert_int_equal(stats_relpct(1217433, 1721941, &r), 0);
    assert_int_equal(r, -30);
    assert_int_equal(stats_relpct(200, 100, &r), 0); /* exactly +100 */
    assert_int_equal(r, 100);
    assert_int_equal(stats_relpct(99, 100, &r), 0); /* -1, not -0 */
    assert_int_equal(r, -1);
    assert_int_equal(stats_relpct(100, 100, &r), 0);
    assert_int_equal(r, 0);
    /* Floating inputs landing on an integer: 1.07/1.0 - 1 is 0.0700000000000001 or
     * 0.06999..., the answer must be 7 either way. */
    assert_int_equal(stats_relpct(1.07, 1.0, &r), 0);
    assert_int_equal(r, 7);
    assert_int_equal(stats_relpct(0.29, 0.1, &r), 0);
    assert_int_equal(r, 190);
    assert_int_equal(stats_relpct(1.5, 2.25, &r), 0);
    assert_int_equal(r, -34); /* -33.33 floors to -34 */
    assert_int_equal(stats_relpct(1, 0, &r), -1);
    assert_int_equal(stats_relpct(NAN, 1, &r), -1);
}

static void check_usl(double lambda, double sigma, double kappa, double noise)
{
    double n[] = {1, 2, 4, 8, 12, 16, 24, 32, 48, 64};
    double x[10];
    struct stats_usl truth = {lambda, sigma, kappa, 0, 0}, u;
    for (int i = 0; i < 10; i++)
        x[i] = stats_usl_eval(&truth, n[i]) * (1 + noise * ((i % 3) - 1));
    assert_int_equal(stats_usl_fit(n, x, 10, &u), 0);
    double tol = noise > 0 ? 0.15 : 1e-4;
    assert_float_equal(u.lambda, lambda, lambda * tol);
    assert_float_equal(u.sigma, sigma, sigma * tol + 1e-9);
    assert_float_equal(u.kappa, kappa, kappa * tol + 1e-9);
    assert_true(u.r2 > (noise > 0 ? 0.98 : 0.999999));
    if (kappa > 0)
        assert_float_equal(u.nstar, sqrt((1 - u.sigma) / u.kappa), 1e-9);
    else
        assert_true(isinf(u.nstar));
}

static void test_usl_fit(void **state)
{
    (void)state;
    check_usl(1000, 0.05, 0.0002, 0);    /* peaks near N* = 69 */
    check_usl(2500, 0.02, 0.001, 0);     /* peaks near N* = 31, then retrograde */
    check_usl(800, 0.1, 0, 0);           /* Amdahl: kappa = 0, N* infinite */
    check_usl(1000, 0.05, 0.0005, 0.01); /* 1% noise */
    struct stats_usl u;
    double n2[] = {1, 2}, x2[] = {10, 20};
    assert_int_equal(stats_usl_fit(n2, x2, 2, &u), -1);
    double n3[] = {1, 2, 4}, x3[] = {10, 0, 30};
    assert_int_equal(stats_usl_fit(n3, x3, 3, &u), -1);
    /* Perfectly linear: sigma = kappa = 0. */
    double n4[] = {1, 2, 4, 8}, x4[] = {100, 200, 400, 800};
    assert_int_equal(stats_usl_fit(n4, x4, 4, &u), 0);
    assert_float_equal(u.lambda, 100, 1e-6);
    assert_float_equal(u.sigma, 0, 1e-9);
    assert_float_equal(u.kappa, 0, 1e-9);
}

static double sse_of(const double *n, const double *x, size_t k, double l, double s, double kk)
{
    double e = 0;
    for (size_t i = 0; i < k; i++) {
        double r = x[i] - l * n[i] / (1 + s * (n[i] - 1) + kk * n[i] * (n[i] - 1));
        e += r * r;
    }
    return e;
}

/* Noisy curves where a single-start projected fit stalls on kappa = 0: the
 * fit must be at least as good as a brute-force grid over sigma and kappa
 * (lambda in closed form for each). */
static void test_usl_global(void **state)
{
    (void)state;
    double na[] = {2, 4, 8, 16, 24}, xa[] = {6565, 7729, 8392, 8163, 9202};
    double nb[] = {2, 4, 8, 16}, xb[] = {1210, 1693, 1928, 2329};
    double nc[] = {1, 2, 4, 8, 16, 32, 64}, xc[] = {3188, 4279, 5663, 6622, 6693, 7760, 7629};
    const double *ns[] = {na, nb, nc}, *xs[] = {xa, xb, xc};
    size_t ks[] = {5, 4, 7};
    for (int c = 0; c < 3; c++) {
        struct stats_usl u;
        assert_int_equal(stats_usl_fit(ns[c], xs[c], ks[c], &u), 0);
        double fit = sse_of(ns[c], xs[c], ks[c], u.lambda, u.sigma, u.kappa), grid = INFINITY;
        for (int a = 0; a <= 300; a++)
            for (int b = 0; b <= 200; b++) {
                double sg = a / 300.0 * 1.5, kp = b ? pow(10, -7 + b * 7.0 / 200) : 0;
                double num = 0, den = 0;
                for (size_t i = 0; i < ks[c]; i++) {
                    double g =
                        ns[c][i] / (1 + sg * (ns[c][i] - 1) + kp * ns[c][i] * (ns[c][i] - 1));
                    num += xs[c][i] * g, den += g * g;
                }
                grid = fmin(grid, sse_of(ns[c], xs[c], ks[c], num / den, sg, kp));
            }
        if (fit > grid * 1.0001)
            fail_msg("curve %d: fit SSE %g worse than grid %g", c, fit, grid);
        assert_true(u.sigma >= 0 && u.kappa >= 0);
    }
}

static void test_curve(void **state)
{
    (void)state;
    double n[] = {1, 2, 4, 8, 16}, x[] = {100, 190, 350, 380, 300};
    assert_float_equal(stats_speedup(n, x, 2), 3.5, 1e-12);
    assert_float_equal(stats_efficiency(n, x, 2), 0.875, 1e-12);
    assert_int_equal(stats_peak(x, 5), 3);
    /* gains per thread: 90, 80, 7.5 (< 10), ... */
    assert_int_equal(stats_knee(n, x, 5), 3);
    double lin[] = {100, 200, 400, 800, 1600};
    assert_int_equal(stats_knee(n, lin, 5), 5);
    /* Curve starting at 2 threads: linear gain per thread is x[0]/n[0]. */
    double n2[] = {2, 4, 8}, y2[] = {200, 380, 400};
    assert_float_equal(stats_speedup(n2, y2, 1), 3.8, 1e-12);
    assert_int_equal(stats_knee(n2, y2, 3), 2);
}

/* A fit is shown only when it means something. */
static void test_usl_meaningful(void **state)
{
    (void)state;
    char why[128];
    struct stats_usl good = {1000, 0.05, 0.0002, 0.99, 69};
    assert_int_equal(stats_usl_meaningful(&good, 5, why, sizeof why), 1);
    assert_string_equal(why, "");
    /* The fit the issue quotes: sigma 1.117, N* 0, R^2 0.18. */
    struct stats_usl bad = {1000, 1.117, 0.01, 0.18, 0};
    assert_int_equal(stats_usl_meaningful(&bad, 5, why, sizeof why), 0);
    assert_non_null(strstr(why, "sigma"));
    struct stats_usl lowr2 = {1000, 0.05, 0.0002, 0.18, 69};
    assert_int_equal(stats_usl_meaningful(&lowr2, 5, why, sizeof why), 0);
    assert_non_null(strstr(why, "R2 0.18"));
    assert_int_equal(stats_usl_meaningful(&good, 3, why, sizeof why), 0);
    assert_non_null(strstr(why, "3 points"));
    struct stats_usl negk = {1000, 0.05, -1e-4, 0.99, 69};
    assert_int_equal(stats_usl_meaningful(&negk, 5, why, sizeof why), 0);
    assert_non_null(strstr(why, "kappa"));
}

/* The ideal of a thread curve is linear up to the server's CPU count and flat
 * after: a server on 2 CPUs that doubles its throughput by 2 threads and
 * holds it is 100% efficient at 32 threads, not 6%. */
static void test_efficiency_vs_cpus(void **state)
{
    (void)state;
    double n[] = {1, 2, 4, 8, 16, 32}, x[] = {100, 200, 200, 200, 200, 190};
    assert_float_equal(stats_ideal(n, x, 0, 2), 100, 1e-9);
    assert_float_equal(stats_ideal(n, x, 1, 2), 200, 1e-9);
    assert_float_equal(stats_ideal(n, x, 5, 2), 200, 1e-9);
    assert_float_equal(stats_efficiency_cpus(n, x, 3, 2), 1.0, 1e-9);
    assert_float_equal(stats_efficiency_cpus(n, x, 5, 2), 0.95, 1e-9);
    /* No CPU count known: linear throughout (the old definition). */
    assert_float_equal(stats_efficiency_cpus(n, x, 5, 0), 190.0 / 3200, 1e-9);
    /* A latency-bound first point on 1 CPU: more threads fill the idle CPU,
     * the point is superlinear (264%), and stays so against the flat ideal. */
    double n1[] = {1, 2, 4, 8}, x1[] = {100, 180, 250, 264};
    assert_float_equal(stats_efficiency_cpus(n1, x1, 3, 1), 2.64, 1e-9);
    assert_true(stats_superlinear(n1, x1, 3, 1));
    assert_false(stats_superlinear(n, x, 5, 2));
    /* A curve starting above the CPU count: the first point is the ideal. */
    double n2[] = {4, 8}, x2[] = {400, 400};
    assert_float_equal(stats_efficiency_cpus(n2, x2, 1, 2), 1.0, 1e-9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_t_quantiles),
        cmocka_unit_test(test_welch_examples),
        cmocka_unit_test(test_relpct),
        cmocka_unit_test(test_usl_fit),
        cmocka_unit_test(test_usl_global),
        cmocka_unit_test(test_curve),
        cmocka_unit_test(test_usl_meaningful),
        cmocka_unit_test(test_efficiency_vs_cpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
