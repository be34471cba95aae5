/*
 * stats.h - the numbers behind plot and compare: summaries over repeats,
 * Student t quantiles, Welch's t-test, relative %, speedup, and the Universal
 * Scalability Law fit. Pure functions over arrays of doubles; no I/O.
 */
#ifndef DBSCALE_STATS_H
#define DBSCALE_STATS_H

#include <stddef.h>

/* One point over its repeats. sd and the CI need n >= 2 (else 0 and [mean, mean]). */
struct stats_summary {
    size_t n;
    double median, mean, sd, min, max;
    double ci_lo, ci_hi; /* 95% confidence interval of the mean (Student t) */
};

double stats_median(const double *x, size_t n); /* 0 when n == 0 */
double stats_mean(const double *x, size_t n);
double stats_sd(const double *x, size_t n); /* sample standard deviation (n - 1) */
void stats_summarize(const double *x, size_t n, struct stats_summary *s);

double stats_t_cdf(double t, double df);      /* P(T <= t), Student t with df degrees */
double stats_t_quantile(double p, double df); /* inverse of stats_t_cdf, 0 < p < 1 */

/* Welch's unequal-variance t-test of mean(a) vs mean(b), two-sided. */
struct stats_welch {
    double t, df, p; /* statistic, Welch-Satterthwaite df, two-sided p-value */
    double diff, ci; /* mean(a) - mean(b) and the half-width of its 95% CI */
    int significant; /* |t| beyond the 95% critical value */
};
/* 0, or -1 when either side has fewer than 2 values (nothing can be proven). */
int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_welch *w);

/* floor((a / b - 1) * 100) computed so integral results are exact.
 * 0, or -1 when b is not positive or a value is not finite. */
int stats_relpct(double a, double b, long long *out);

/* Universal Scalability Law: X(N) = lambda N / (1 + sigma (N-1) + kappa N (N-1)). */
struct stats_usl {
    double lambda, sigma, kappa; /* sigma, kappa >= 0 */
    double r2;                   /* coefficient of determination of the fit */
    double nstar;                /* sqrt((1 - sigma) / kappa); INFINITY when kappa == 0 */
};
/* Least-squares fit (Levenberg-Marquardt) to k points (n[i], x[i]).
 * 0, or -1 with fewer than 3 distinct n or non-positive throughput. */
int stats_usl_fit(const double *n, const double *x, size_t k, struct stats_usl *u);
double stats_usl_eval(const struct stats_usl *u, double n);
/* Whether a fit of k points says anything: k >= 4, 0 <= sigma < 1,
 * kappa >= 0 and R^2 >= 0.9. 1 (why = ""), or 0 with the reason in why
 * ("R2 0.18 < 0.9"), for a reader to see instead of numbers. */
int stats_usl_meaningful(const struct stats_usl *u, size_t k, char *why, size_t len);

/* A scaling curve: threads n[] ascending with median throughput x[]. Speedup is
 * relative to the first point assumed linear up to it: x[i] / (x[0] / n[0]). */
double stats_speedup(const double *n, const double *x, size_t i);
double stats_efficiency(const double *n, const double *x, size_t i); /* speedup / n[i] */
size_t stats_peak(const double *x, size_t k); /* index of the highest throughput */
/* The ideal of a thread curve on a server held to cpus CPUs: linear from the
 * first point up to cpus threads, flat after (more threads than CPUs cannot
 * add CPU). cpus <= 0 (unknown): linear throughout. */
double stats_ideal(const double *n, const double *x, size_t i, int cpus);
/* x[i] / stats_ideal(): 1 on the ideal line, over 1 superlinear. */
double stats_efficiency_cpus(const double *n, const double *x, size_t i, int cpus);
/* Point i beats its ideal by more than 5%: usually the first point was not
 * CPU-bound (latency-bound, the server mostly idle), which a reader must know. */
int stats_superlinear(const double *n, const double *x, size_t i, int cpus);
/* Index of the first point whose marginal gain per added thread is under 10%
 * of the linear gain x[0]/n[0]; k when there is none. */
size_t stats_knee(const double *n, const double *x, size_t k);

#endif
