/*
 * target.c - whether a point's median is known well enough: the bootstrap
 * interval of its median throughput against the study's target.
 *
 * The one idea: judge each point on its own repeats, by the quantity the
 * page shows (the median), with an interval whose width is what more
 * repeats narrow. A point with too few values is not judged at all rather
 * than taken as tight: two equal values are no evidence of a small spread.
 *
 * Pure: rows in, points out; it reads no file and decides no run.
 */
#include "study/target.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats/boot.h"
#include "stats/stats.h"
#include "core/util.h"

static int median_fn(const double *const *x, const size_t *n, size_t k, void *ctx, double *out)
{
    (void)k, (void)ctx;
    out[0] = stats_median(x[0], n[0]);
    return 0;
}

/* The index of the point (vi, label, cpus, threads) in pts, or -1. */
static int find(const struct study_point *pts, int np, int vi, const struct result_row *r)
{
    for (int i = 0; i < np; i++)
        if (pts[i].vi == vi && pts[i].cpus == r->cpus && pts[i].threads == r->threads &&
            !strcmp(pts[i].label, r->variant))
            return i;
    return -1;
}

static void judge(struct study_point *p, const double *x, const struct study_target *t)
{
    p->median = stats_median(x, (size_t)p->n);
    p->lo = p->hi = p->median;
    if (p->n >= 2) {
        const double *xs[1] = {x};
        size_t ns[1] = {(size_t)p->n};
        struct stats_boot_opt o = {.reps = 1000, .seed = 1, .conf = 0.95};
        struct stats_interval ci;
        if (stats_boot(xs, ns, 1, median_fn, NULL, 1, &o, &ci, NULL) == 0 && isfinite(ci.lo) &&
            isfinite(ci.hi))
            p->lo = ci.lo, p->hi = ci.hi;
    }
    p->half = p->median > 0 ? (p->hi - p->lo) / 2 / p->median : INFINITY;
    p->met = p->n >= (t->min_repeats > 0 ? t->min_repeats : 3) && p->half <= t->ci;
}

void study_target_points(const struct result_row *rows, size_t n, int vi,
                         const struct study_target *t, struct study_point **pts, int *npts)
{
    int first = *npts;
    double *x = xcalloc(n ? n : 1, sizeof *x);
    for (size_t i = 0; i < n; i++) {
        const struct result_row *r = &rows[i];
        if (find(*pts + first, *npts - first, vi, r) >= 0)
            continue;
        *pts = xrealloc(*pts, (size_t)(*npts + 1) * sizeof **pts);
        struct study_point *p = &(*pts)[(*npts)++];
        memset(p, 0, sizeof *p);
        p->vi = vi;
        p->cpus = r->cpus;
        p->threads = r->threads;
        snprintf(p->label, sizeof p->label, "%s", r->variant);
        for (size_t j = i; j < n; j++) {
            const struct result_row *q = &rows[j];
            if (q->cpus == r->cpus && q->threads == r->threads && !strcmp(q->variant, r->variant) &&
                !q->disturbed && q->tps > 0)
                x[p->n++] = q->tps;
        }
        judge(p, x, t);
    }
    free(x);
}

double study_target_pct(const struct study_point *p)
{
    return 100 * p->half;
}
