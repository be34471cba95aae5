/*
 * stats.c - the statistics that let plot and compare say when a difference is
 * real on a noisy machine.
 *
 * The one idea: everything reduces to two well-known functions, the Student t
 * distribution (via the regularized incomplete beta function, evaluated by
 * its continued fraction) and a small Levenberg-Marquardt solver for the
 * three USL parameters with sigma and kappa projected onto >= 0. Relative %
 * is floored with integer arithmetic whenever the inputs are whole numbers,
 * so the reference table's convention is reproduced bit for bit.
 *
 * Never allocate per call beyond one scratch copy, never print, never abort
 * on odd input: empty or degenerate data gives 0 / -1, not NaN surprises.
 */
#include "stats/stats.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double stats_median(const double *x, size_t n)
{
    if (n == 0)
        return 0;
    double *c = xmalloc(n * sizeof *c);
    memcpy(c, x, n * sizeof *c);
    qsort(c, n, sizeof *c, cmp_double);
    double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    free(c);
    return m;
}

double stats_mean(const double *x, size_t n)
{
    if (n == 0)
        return 0;
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += x[i];
    return s / (double)n;
}

double stats_sd(const double *x, size_t n)
{
    if (n < 2)
        return 0;
    double m = stats_mean(x, n), s = 0;
    for (size_t i = 0; i < n; i++)
        s += (x[i] - m) * (x[i] - m);
    return sqrt(s / (double)(n - 1));
}

void stats_summarize(const double *x, size_t n, struct stats_summary *s)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    if (n == 0)
        return;
    s->median = stats_median(x, n);
    s->mean = stats_mean(x, n);
    s->sd = stats_sd(x, n);
    s->min = s->max = x[0];
    for (size_t i = 1; i < n; i++) {
        if (x[i] < s->min)
            s->min = x[i];
        if (x[i] > s->max)
            s->max = x[i];
    }
    double h = 0;
    if (n >= 2)
        h = stats_t_quantile(0.975, (double)(n - 1)) * s->sd / sqrt((double)n);
    s->ci_lo = s->mean - h;
    s->ci_hi = s->mean + h;
}

/* Continued fraction for the incomplete beta function (modified Lentz). */
static double betacf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double qab = a + b, qap = a + 1, qam = a - 1;
    double c = 1, d = 1 - qab * x / qap;
    if (fabs(d) < tiny)
        d = tiny;
    d = 1 / d;
    double h = d;
    for (int m = 1; m <= 300; m++) {
        int m2 = 2 * m;
        double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
        d = 1 + aa * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        h *= d * c;
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
        d = 1 + aa * d;
        if (fabs(d) < tiny)
            d = tiny;
        c = 1 + aa / c;
        if (fabs(c) < tiny)
            c = tiny;
        d = 1 / d;
        double del = d * c;
        h *= del;
        if (fabs(del - 1) < 1e-15)
            break;
    }
    return h;
}

/* Regularized incomplete beta I_x(a, b). */
static double ibeta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lbt = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    double bt = exp(lbt);
    if (x < (a + 1) / (a + b + 2))
        return bt * betacf(a, b, x) / a;
    return 1 - bt * betacf(b, a, 1 - x) / b;
}

/* Two-sided tail P(|T| >= |t|). */
static double t_two_tail(double t, double df)
{
    if (isinf(t))
        return 0;
    return ibeta(df / 2, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
    double tail = t_two_tail(t, df) / 2;
    return t > 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
    if (p <= 0)
        return -INFINITY;
    if (p >= 1)
        return INFINITY;
    if (p == 0.5)
        return 0;
    if (p < 0.5)
        return -stats_t_quantile(1 - p, df);
    double lo = 0, hi = 1;
    while (stats_t_cdf(hi, df) < p && hi < 1e12)
        hi *= 2;
    /* Newton on the cdf (its slope is the density), kept inside the bracket
     * [lo, hi], bisecting when a step would leave it: a handful of cdf
     * evaluations instead of the forty of bisection alone. */
    double lc = lgamma((df + 1) / 2) - lgamma(df / 2) - 0.5 * log(df * M_PI);
    double t = (lo + hi) / 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
        double f = stats_t_cdf(t, df) - p;
        if (f == 0)
            return t;
        if (f < 0)
            lo = t;
        else
            hi = t;
        double step = f / exp(lc - (df + 1) / 2 * log1p(t * t / df));
        double next = t - step;
        if (!(next > lo && next < hi))
            next = (lo + hi) / 2;
        else if (fabs(step) <= 1e-13 * t)
            return next;
        t = next;
    }
    return t;
}

int stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_welch *w)
{
    memset(w, 0, sizeof *w);
    if (na < 2 || nb < 2)
        return -1;
    double ma = stats_mean(a, na), mb = stats_mean(b, nb);
    double sa = stats_sd(a, na), sb = stats_sd(b, nb);
    double va = sa * sa / (double)na, vb = sb * sb / (double)nb;
    double se = sqrt(va + vb);
    w->diff = ma - mb;
    if (se == 0) {
        /* No spread at all: identical constants prove nothing, different ones prove all. */
        w->df = (double)(na + nb - 2);
        w->t = w->diff == 0 ? 0 : copysign(INFINITY, w->diff);
        w->p = w->diff == 0 ? 1 : 0;
        w->significant = w->diff != 0;
        return 0;
    }
    w->t = w->diff / se;
    w->df = (va + vb) * (va + vb) / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
    w->p = t_two_tail(w->t, w->df);
    double crit = stats_t_quantile(0.975, w->df);
    w->ci = crit * se;
    w->significant = fabs(w->t) > crit;
    return 0;
}

int stats_relpct(double a, double b, long long *out)
{
    if (!isfinite(a) || !isfinite(b) || b <= 0)
        return -1;
    /* Whole numbers: exact integer floor division, no rounding anywhere. */
    if (a == floor(a) && b == floor(b) && fabs(a) < 9e15 && b < 9e15) {
        long long ia = (long long)a, ib = (long long)b;
        long long num = (ia - ib) * 100; /* |num| < 1.8e18: fits */
        long long q = num / ib;
        if (num % ib != 0 && num < 0)
            q--;
        *out = q;
        return 0;
    }
    long double q = ((long double)a - (long double)b) * 100.0L / (long double)b;
    /* a relative % beyond what a long long holds cannot be converted
     * (undefined behaviour; the fuzzer found it with 1e67 against 0.5) */
    if (!(fabsl(q) < 9.2e18L))
        return -1;
    long double r = roundl(q);
    /* A quotient within rounding noise of an integer is that integer. */
    if (fabsl(q - r) <= 1e-12L * fmaxl(1.0L, fabsl(q)))
        *out = (long long)r;
    else
        *out = (long long)floorl(q);
    return 0;
}

double stats_usl_eval(const struct stats_usl *u, double n)
{
    return u->lambda * n / (1 + u->sigma * (n - 1) + u->kappa * n * (n - 1));
}

static double usl_sse(const double *n, const double *x, size_t k, const struct stats_usl *u)
{
    double s = 0;
    for (size_t i = 0; i < k; i++) {
        double r = x[i] - stats_usl_eval(u, n[i]);
        s += r * r;
    }
    return s;
}

/* Solve the 3x3 system A d = g by Gaussian elimination with pivoting. */
static int solve3(double A[3][3], double g[3], double d[3])
{
    double M[3][4];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++)
            M[i][j] = A[i][j];
        M[i][3] = g[i];
    }
    for (int c = 0; c < 3; c++) {
        int p = c;
        for (int r = c + 1; r < 3; r++)
            if (fabs(M[r][c]) > fabs(M[p][c]))
                p = r;
        if (fabs(M[p][c]) < 1e-300)
            return -1;
        for (int j = 0; j < 4; j++) {
            double t = M[c][j];
            M[c][j] = M[p][j];
            M[p][j] = t;
        }
        for (int r = 0; r < 3; r++) {
            if (r == c)
                continue;
            double f = M[r][c] / M[c][c];
            for (int j = c; j < 4; j++)
                M[r][j] -= f * M[c][j];
        }
    }
    for (int i = 0; i < 3; i++)
        d[i] = M[i][3] / M[i][i];
    return 0;
}

/* Starting point: lambda from the first point, sigma/kappa from the
 * linearised form n*lambda/x - 1 = sigma (n-1) + kappa n (n-1). */
static void usl_start(const double *n, const double *x, size_t k, struct stats_usl *u)
{
    u->lambda = x[0] / n[0];
    for (size_t i = 1; i < k; i++)
        if (n[i] < 1.5 && x[i] / n[i] > u->lambda)
            u->lambda = x[i] / n[i];
    double s11 = 0, s12 = 0, s22 = 0, b1 = 0, b2 = 0;
    for (size_t i = 0; i < k; i++) {
        double y = n[i] * u->lambda / x[i] - 1, p = n[i] - 1, q = n[i] * (n[i] - 1);
        s11 += p * p, s12 += p * q, s22 += q * q, b1 += p * y, b2 += q * y;
    }
    double det = s11 * s22 - s12 * s12;
    u->sigma = u->kappa = 0;
    if (fabs(det) > 1e-300) {
        u->sigma = (b1 * s22 - b2 * s12) / det;
        u->kappa = (s11 * b2 - s12 * b1) / det;
    }
    if (u->sigma < 0 || u->kappa < 0) {
        /* Refit the one-parameter models and keep the better of the two. */
        double s = s11 > 0 ? fmax(0, b1 / s11) : 0, kk = s22 > 0 ? fmax(0, b2 / s22) : 0;
        struct stats_usl a = *u, b = *u;
        a.sigma = s, a.kappa = 0;
        b.sigma = 0, b.kappa = kk;
        *u = usl_sse(n, x, k, &a) <= usl_sse(n, x, k, &b) ? a : b;
    }
}

/* Levenberg-Marquardt from *u, sigma and kappa kept >= 0 by an active set: a
 * parameter at 0 whose gradient pushes it below is held there for the step.
 * Returns the final sum of squared errors. */
static double usl_lm(const double *n, const double *x, size_t k, struct stats_usl *u)
{
    double sse = usl_sse(n, x, k, u), mu = 1e-3;
    for (int it = 0; it < 1000; it++) {
        double JtJ[3][3] = {{0}}, Jtr[3] = {0};
        for (size_t i = 0; i < k; i++) {
            double N = n[i], D = 1 + u->sigma * (N - 1) + u->kappa * N * (N - 1);
            double J[3] = {N / D, -u->lambda * N * (N - 1) / (D * D),
                           -u->lambda * N * N * (N - 1) / (D * D)};
            double r = x[i] - u->lambda * N / D;
            for (int a = 0; a < 3; a++) {
                Jtr[a] += J[a] * r;
                for (int b = 0; b < 3; b++)
                    JtJ[a][b] += J[a] * J[b];
            }
        }
        /* Jtr[a] > 0 means increasing parameter a lowers the error. */
        int held[3] = {0, u->sigma <= 0 && Jtr[1] <= 0, u->kappa <= 0 && Jtr[2] <= 0};
        int improved = 0;
        while (mu < 1e12) {
            double A[3][3], g[3], d[3];
            memcpy(A, JtJ, sizeof A);
            for (int a = 0; a < 3; a++) {
                A[a][a] += mu * (JtJ[a][a] > 0 ? JtJ[a][a] : 1e-12);
                g[a] = held[a] ? 0 : Jtr[a];
                for (int b = 0; b < 3 && held[a]; b++)
                    A[a][b] = A[b][a] = a == b;
            }
            if (solve3(A, g, d) < 0) {
                mu *= 10;
                continue;
            }
            struct stats_usl t = *u;
            t.lambda += d[0];
            t.sigma = fmax(0, t.sigma + d[1]);
            t.kappa = fmax(0, t.kappa + d[2]);
            double e = t.lambda > 0 ? usl_sse(n, x, k, &t) : INFINITY;
            if (e < sse) {
                double gain = sse - e;
                *u = t;
                sse = e;
                mu = fmax(mu / 10, 1e-12);
                improved = gain > 1e-15 * (sse + DBL_MIN);
                break;
            }
            mu *= 10;
        }
        if (!improved)
            break;
    }
    return sse;
}

int stats_usl_fit(const double *n, const double *x, size_t k, struct stats_usl *u)
{
    memset(u, 0, sizeof *u);
    size_t distinct = 0;
    for (size_t i = 0; i < k; i++) {
        if (!(x[i] > 0) || !(n[i] > 0) || !isfinite(x[i]))
            return -1;
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= n[j] == n[i];
        distinct += !seen;
    }
    if (distinct < 3)
        return -1;
    /* A few starts (the linearised estimate, pure contention, pure coherency,
     * a mix), each polished by LM; the best wins. The error surface has long
     * flat valleys along the sigma/kappa trade-off, one start is not enough. */
    struct stats_usl start;
    usl_start(n, x, k, &start);
    struct stats_usl starts[5] = {start, start, start, start, start};
    starts[1].kappa = 0;
    starts[2].sigma = 0;
    starts[3].sigma = 0.1, starts[3].kappa = 1e-3;
    starts[4].sigma = 0.5, starts[4].kappa = 1e-5;
    double best = INFINITY;
    for (int i = 0; i < 5; i++) {
        struct stats_usl t = starts[i];
        double e = usl_lm(n, x, k, &t);
        if (e < best) {
            best = e;
            *u = t;
        }
    }
    double mean = stats_mean(x, k), sst = 0;
    for (size_t i = 0; i < k; i++)
        sst += (x[i] - mean) * (x[i] - mean);
    u->r2 = sst > 0 ? 1 - best / sst : 1;
    u->nstar = u->kappa > 0 ? sqrt(fmax(0, 1 - u->sigma) / u->kappa) : INFINITY;
    return 0;
}

double stats_speedup(const double *n, const double *x, size_t i)
{
    if (!(x[0] > 0) || !(n[0] > 0))
        return 0;
    return x[i] / (x[0] / n[0]);
}

double stats_efficiency(const double *n, const double *x, size_t i)
{
    return n[i] > 0 ? stats_speedup(n, x, i) / n[i] : 0;
}

double stats_ideal(const double *n, const double *x, size_t i, int cpus)
{
    if (!(x[0] > 0) || !(n[0] > 0))
        return 0;
    if (cpus <= 0)
        return x[0] * n[i] / n[0];
    double c = cpus;
    return x[0] * fmin(n[i], c) / fmin(n[0], c);
}

double stats_efficiency_cpus(const double *n, const double *x, size_t i, int cpus)
{
    double ideal = stats_ideal(n, x, i, cpus);
    return ideal > 0 ? x[i] / ideal : 0;
}

int stats_superlinear(const double *n, const double *x, size_t i, int cpus)
{
    return stats_efficiency_cpus(n, x, i, cpus) > 1.05;
}

int stats_usl_meaningful(const struct stats_usl *u, size_t k, char *why, size_t len)
{
    if (k < 4)
        snprintf(why, len, "%zu points < 4", k);
    else if (!(u->sigma >= 0 && u->sigma < 1))
        snprintf(why, len, "sigma %.3g outside [0, 1)", u->sigma);
    else if (!(u->kappa >= 0))
        snprintf(why, len, "kappa %.3g < 0", u->kappa);
    else if (!(u->r2 >= 0.9))
        snprintf(why, len, "R2 %.2f < 0.9", u->r2);
    else {
        snprintf(why, len, "%s", "");
        return 1;
    }
    return 0;
}

size_t stats_peak(const double *x, size_t k)
{
    size_t p = 0;
    for (size_t i = 1; i < k; i++)
        if (x[i] > x[p])
            p = i;
    return p;
}

size_t stats_knee(const double *n, const double *x, size_t k)
{
    if (k < 2 || !(n[0] > 0))
        return k;
    double linear = x[0] / n[0];
    for (size_t i = 1; i < k; i++) {
        double dn = n[i] - n[i - 1];
        if (dn <= 0)
            continue;
        if ((x[i] - x[i - 1]) / dn < 0.1 * linear)
            return i;
    }
    return k;
}
