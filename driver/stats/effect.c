/*
 * effect.c - one point's change of B against A (see effect.h).
 *
 * The one idea: throughput, latency and CPU per transaction are positive and
 * their noise is multiplicative (a run 3% slow), so the comparison is made
 * on the logs, where a ratio becomes a difference and Welch's t applies; the
 * figures go back to the ratio scale only at the end. The logs are summed
 * as offsets from the first value, so identical values give a spread of
 * exactly 0 and a known ratio comes back exact.
 *
 * Never invents an interval: fewer than two values on a side, or no spread
 * at all, leave NAN figures and say why.
 */
#include "stats/effect.h"

#include <math.h>
#include <string.h>

#include "stats/stats.h"

/* Mean and standard deviation of log(x); -1 when a value is not > 0 and finite. */
static int log_moments(const double *x, size_t n, double *mean, double *sd)
{
    for (size_t i = 0; i < n; i++)
        if (!(x[i] > 0) || !isfinite(x[i]))
            return -1;
    double l0 = log(x[0]), s = 0;
    for (size_t i = 1; i < n; i++)
        s += log(x[i]) - l0;
    double off = s / (double)n, ss = 0;
    for (size_t i = 0; i < n; i++) {
        double d = (i ? log(x[i]) - l0 : 0) - off;
        ss += d * d;
    }
    *mean = l0 + off;
    *sd = n >= 2 ? sqrt(ss / (double)(n - 1)) : NAN;
    return 0;
}

static void set_opts(const struct stats_effect_opt *o, struct stats_effect *e)
{
    e->conf = o && o->conf > 0 && o->conf < 1 ? o->conf : 0.95;
    e->alpha = o && o->alpha > 0 && o->alpha < 1 ? o->alpha : 0.05;
    e->power = o && o->power > 0 && o->power < 1 ? o->power : 0.8;
}

int stats_effect(const double *a, size_t na, const double *b, size_t nb,
                 const struct stats_effect_opt *o, struct stats_effect *e)
{
    memset(e, 0, sizeof *e);
    set_opts(o, e);
    e->na = na, e->nb = nb;
    e->est = e->lo = e->hi = e->p = e->mde = e->diff = NAN;
    e->sa = e->sb = e->se = e->df = NAN;
    double ma, mb;
    if (na == 0 || nb == 0 || log_moments(a, na, &ma, &e->sa) < 0 ||
        log_moments(b, nb, &mb, &e->sb) < 0) {
        e->sa = e->sb = NAN;
        e->why = STATS_EFFECT_BAD;
        return -1;
    }
    e->diff = mb - ma;
    e->est = expm1(e->diff);
    if (na < 2 || nb < 2) {
        e->why = STATS_EFFECT_ONE_RUN;
        return -1;
    }
    double va = e->sa * e->sa / (double)na, vb = e->sb * e->sb / (double)nb;
    if (va + vb == 0) {
        e->why = STATS_EFFECT_NO_SPREAD;
        return -1;
    }
    e->se = sqrt(va + vb);
    e->df = (va + vb) * (va + vb) / (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
    e->p = 2 * stats_t_cdf(-fabs(e->diff / e->se), e->df);
    double q = stats_t_quantile(1 - (1 - e->conf) / 2, e->df);
    e->lo = expm1(e->diff - q * e->se);
    e->hi = expm1(e->diff + q * e->se);
    double qa =
        fabs(e->alpha - (1 - e->conf)) < 1e-12 ? q : stats_t_quantile(1 - e->alpha / 2, e->df);
    e->mde = expm1((qa + stats_t_quantile(e->power, e->df)) * e->se);
    e->why = STATS_EFFECT_OK;
    return 0;
}

/* Half-width on the logs with m repeats on each side of spreads va, vb (variances). */
static double half_width(double va, double vb, double pq, size_t m)
{
    double v = va + vb, df = (double)(m - 1) * v * v / (va * va + vb * vb);
    return stats_t_quantile(pq, df) * sqrt(v / (double)m);
}

size_t stats_effect_repeats(const struct stats_effect *e, double delta, size_t cap)
{
    if (e->why == STATS_EFFECT_BAD || !(delta > 0 && delta < 1) || cap < 2)
        return 0;
    double va = e->sa * e->sa, vb = e->sb * e->sb;
    if (isnan(va))
        va = vb;
    if (isnan(vb))
        vb = va;
    if (!(va + vb > 0))
        return 0;
    double dist = fmin(fabs(e->diff - log1p(delta)), fabs(e->diff - log1p(-delta)));
    double pq = 1 - (1 - e->conf) / 2;
    if (!(half_width(va, vb, pq, cap) < dist))
        return cap + 1;
    /* The half-width falls as m grows: the smallest m in (lo, hi] that decides. */
    size_t lo = 1, hi = cap;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (half_width(va, vb, pq, mid) < dist)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}
