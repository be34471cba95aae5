/*
 * pooled.c - a change pooled over points (see pooled.h).
 *
 * The one idea: the points are the replicates. A mean of log ratios over m
 * points has m - 1 degrees of freedom however many transactions each point
 * ran, so three disagreeing points give a wide interval, and the sentence
 * built on them must say so.
 *
 * Never reports an interval of zero width from a single unit or from
 * identical ratios.
 */
#include "stats/pooled.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/stats.h"

/* The pooling itself, over logs already taken. */
static int pool_logs(const double *l, size_t m, struct stats_pooled *p)
{
    double s = 0;
    for (size_t i = 0; i < m; i++)
        s += l[i];
    double mean = s / (double)m;
    p->est = expm1(mean);
    if (m < 2) {
        p->why = STATS_POOLED_ONE;
        return -1;
    }
    double ss = 0;
    for (size_t i = 0; i < m; i++)
        ss += (l[i] - mean) * (l[i] - mean);
    double sd = sqrt(ss / (double)(m - 1));
    if (!(sd > 1e-12 * fmax(1, fabs(mean)))) {
        p->why = STATS_POOLED_NO_SPREAD;
        return -1;
    }
    p->se = sd / sqrt((double)m);
    p->df = (double)(m - 1);
    double t = stats_t_quantile(1 - (1 - p->conf) / 2, p->df);
    p->lo = expm1(mean - t * p->se);
    p->hi = expm1(mean + t * p->se);
    p->established = p->lo > 0 || p->hi < 0;
    p->why = STATS_POOLED_OK;
    return 0;
}

static void pooled_init(size_t m, double conf, struct stats_pooled *p)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    p->conf = conf > 0 && conf < 1 ? conf : 0.95;
    p->est = p->lo = p->hi = p->se = p->df = NAN;
    p->why = STATS_POOLED_BAD;
}

static int ratio_ok(double r)
{
    return r > 0 && isfinite(r);
}

int stats_pooled(const double *r, size_t m, double conf, struct stats_pooled *p)
{
    pooled_init(m, conf, p);
    if (m == 0)
        return -1;
    for (size_t i = 0; i < m; i++)
        if (!ratio_ok(r[i]))
            return -1;
    double *l = xmalloc(m * sizeof *l);
    for (size_t i = 0; i < m; i++)
        l[i] = log(r[i]);
    int rc = pool_logs(l, m, p);
    free(l);
    return rc;
}

int stats_pooled_groups(const double *const *r, const size_t *nr, size_t k,
                        enum stats_pool_unit unit, double conf, struct stats_pooled *p)
{
    size_t total = 0;
    for (size_t i = 0; i < k; i++) {
        for (size_t j = 0; j < nr[i]; j++)
            if (!ratio_ok(r[i][j])) {
                pooled_init(0, conf, p);
                return -1;
            }
        total += nr[i];
    }
    double *l = xmalloc((total ? total : 1) * sizeof *l);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        if (nr[i] == 0)
            continue; /* a point without a boot pair is not a unit */
        if (unit == STATS_POOL_BOOTS) {
            for (size_t j = 0; j < nr[i]; j++)
                l[m++] = log(r[i][j]);
            continue;
        }
        double s = 0;
        for (size_t j = 0; j < nr[i]; j++)
            s += log(r[i][j]);
        l[m++] = s / (double)nr[i];
    }
    pooled_init(m, conf, p);
    int rc = m ? pool_logs(l, m, p) : -1;
    free(l);
    return rc;
}
