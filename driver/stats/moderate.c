/*
 * moderate.c - empirical-Bayes moderation of a grid's per-point variances
 * (see moderate.h).
 *
 * The one idea (Smyth 2004, section 6.2): the points' sample variances s_i^2
 * on d_i df are taken as draws around a scaled inverse chi-square prior
 * (s0^2, d0). Matching the mean and variance of log s_i^2 - whose sampling
 * part is known exactly through the digamma and trigamma functions - gives
 * s0 and d0; each point's posterior variance (d0 s0^2 + d_i s_i^2) / (d0 + d_i)
 * then carries d0 + d_i degrees of freedom (capped, as limma does, at the
 * grid's total). Points whose spreads disagree give a small d0; below the
 * caller's gate nothing is borrowed at all, since the prior's shape is then
 * doubtful and a wrong shape makes the noisiest points look too sure.
 *
 * Never moderates fewer than 3 points, and never touches a point without
 * its own interval.
 */
#include "stats/moderate.h"

#include <math.h>
#include <stdlib.h>

#include "core/util.h"
#include "stats/stats.h"

/* digamma, trigamma and tetragamma for x > 0: shift up by recurrence to
 * x >= 10, then the asymptotic series (Bernoulli numbers). */
static double digamma(double x)
{
    double r = 0;
    for (; x < 10; x++)
        r -= 1 / x;
    double f = 1 / (x * x);
    return r + log(x) - 0.5 / x -
           f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

static double trigamma(double x)
{
    double r = 0;
    for (; x < 10; x++)
        r += 1 / (x * x);
    double f = 1 / (x * x);
    return r + 1 / x + f / 2 +
           f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f * (1.0 / 30 - f * 5 / 66))));
}

static double tetragamma(double x)
{
    double r = 0;
    for (; x < 10; x++)
        r -= 2 / (x * x * x);
    double f = 1 / (x * x);
    return r - f - f / x - f * f * (0.5 - f * (1.0 / 6 - f * (1.0 / 6 - f * (0.3 - f * 5 / 6))));
}

/* y with trigamma(y) = x (limma's trigammaInverse: Newton from 0.5 + 1/x). */
static double trigamma_inverse(double x)
{
    if (x > 1e7)
        return 1 / sqrt(x);
    if (x < 1e-6)
        return 1 / x;
    double y = 0.5 + 1 / x;
    for (int i = 0; i < 50; i++) {
        double tri = trigamma(y), dif = tri * (1 - tri / x) / tetragamma(y);
        y += dif;
        if (-dif / y < 1e-8)
            break;
    }
    return y;
}

/* The prior (d0, s0^2) from g sample variances v[] on d[] df: the mean and
 * variance of log v beyond what sampling explains. */
static void fit_prior(const double *v, const double *d, size_t g, double *d0, double *s02)
{
    double emean = 0, tri = 0, evar = 0;
    for (size_t i = 0; i < g; i++) {
        emean += log(v[i]) - digamma(d[i] / 2) + log(d[i] / 2);
        tri += trigamma(d[i] / 2);
    }
    emean /= (double)g;
    for (size_t i = 0; i < g; i++) {
        double z = log(v[i]) - digamma(d[i] / 2) + log(d[i] / 2) - emean;
        evar += z * z;
    }
    evar = evar / (double)(g - 1) - tri / (double)g;
    *d0 = INFINITY;
    *s02 = exp(emean);
    if (evar > 0) {
        *d0 = 2 * trigamma_inverse(evar);
        *s02 = exp(emean + digamma(*d0 / 2) - log(*d0 / 2));
    }
}

/* The point's pooled variance of the logs (both sides) and its df. */
static double pooled_var(const struct stats_effect *e, double *d)
{
    *d = (double)(e->na + e->nb - 2);
    return ((double)(e->na - 1) * e->sa * e->sa + (double)(e->nb - 1) * e->sb * e->sb) / *d;
}

/* se, df, p, interval and MDE of a point from a posterior variance v on df degrees. */
static void rederive(struct stats_effect *e, double v, double df)
{
    e->se = sqrt(v * (1 / (double)e->na + 1 / (double)e->nb));
    e->df = df;
    e->p = 2 * stats_t_cdf(-fabs(e->diff / e->se), df);
    double q = stats_t_quantile(1 - (1 - e->conf) / 2, df);
    e->lo = expm1(e->diff - q * e->se);
    e->hi = expm1(e->diff + q * e->se);
    double qa = fabs(e->alpha - (1 - e->conf)) < 1e-12 ? q : stats_t_quantile(1 - e->alpha / 2, df);
    e->mde = expm1((qa + stats_t_quantile(e->power, df)) * e->se);
    e->moderated = 1;
}

int stats_moderate(struct stats_effect *e, size_t n, double min_d0, struct stats_moderation *m)
{
    m->used = 0;
    m->d0 = m->s0 = NAN;
    m->applied = 0;
    double *v = xmalloc((n ? n : 1) * sizeof *v), *d = xmalloc((n ? n : 1) * sizeof *d);
    double dtotal = 0;
    size_t g = 0;
    for (size_t i = 0; i < n; i++) {
        if (e[i].why != STATS_EFFECT_OK)
            continue;
        v[g] = pooled_var(&e[i], &d[g]);
        dtotal += d[g];
        g += v[g] > 0; /* one side constant, the other all but: says nothing of the noise */
    }
    if (g >= 3) {
        double s02;
        fit_prior(v, d, g, &m->d0, &s02);
        m->s0 = sqrt(s02);
        m->used = g;
    }
    free(d);
    free(v);
    if (g < 3 || !(m->d0 >= (min_d0 > 0 ? min_d0 : 10)))
        return -1;
    double s02 = m->s0 * m->s0;
    for (size_t i = 0; i < n; i++) {
        if (e[i].why != STATS_EFFECT_OK)
            continue;
        double di, vi = pooled_var(&e[i], &di);
        double post = isinf(m->d0) ? s02 : (m->d0 * s02 + di * vi) / (m->d0 + di);
        rederive(&e[i], post, fmin(m->d0 + di, dtotal));
    }
    m->applied = 1;
    return 0;
}
