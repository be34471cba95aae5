/*
 * verdict_curves.c - the figures of whole curves, with intervals: each
 * pair's peak (and where it is), knee and the ratio of B's peak to A's; each
 * curve's peak against its fewest-CPUs curve's, as scaling efficiency.
 *
 * The one idea: resample the repeats of every point (stats/curveboot.h) and
 * recompute the figure, so an interval says how far the repeats let the
 * figure move. The seed is the verdict's: the same results give the same
 * intervals, on any machine.
 */
#include "analysis/verdict_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/curveboot.h"

#define MAXREP 256

/* A curve's repeats per point, for the bootstrap. */
struct reps {
    struct stats_curve sc;
    double n[CURVE_MAXPTS];
    double *x[CURVE_MAXPTS];
    size_t nx[CURVE_MAXPTS];
};

static void reps_of(const struct curves *cv, const struct curve *c, struct reps *r)
{
    memset(r, 0, sizeof *r);
    size_t k = 0;
    for (size_t t = 0; t < c->k; t++) {
        double v[MAXREP];
        int dropped = 0;
        size_t n = verdict_values(cv, c, c->n[t], VF_TPS, v, MAXREP, &dropped);
        if (!n)
            continue; /* a point with no measured repeat: not resampled */
        r->n[k] = c->n[t];
        r->x[k] = xmalloc(n * sizeof *r->x[k]);
        memcpy(r->x[k], v, n * sizeof *v);
        r->nx[k++] = n;
    }
    r->sc = (struct stats_curve){.k = k,
                                 .n = r->n,
                                 .x = (const double *const *)r->x,
                                 .nx = r->nx,
                                 .cpus = c->cpus,
                                 .median = 1};
}

static void reps_free(struct reps *r)
{
    for (size_t t = 0; t < r->sc.k; t++)
        free(r->x[t]);
}

static struct stats_boot_opt boot_opt(const struct verdict *v)
{
    return (struct stats_boot_opt){.reps = v->opt.boot, .seed = v->opt.seed, .conf = v->opt.conf};
}

static void none(struct stats_interval *i)
{
    memset(i, 0, sizeof *i);
    i->est = i->lo = i->hi = NAN;
}

void verdict_curves(struct verdict *v, const struct curves *cv)
{
    struct stats_boot_opt o = boot_opt(v);
    for (size_t i = 0; i < v->npairs; i++) {
        struct verdict_pair *p = &v->pairs[i];
        struct reps a, b;
        reps_of(cv, &cv->c[p->ca], &a);
        reps_of(cv, &cv->c[p->cb], &b);
        struct stats_curve_ci ca, cb;
        none(&p->peak_a), none(&p->peak_b), none(&p->knee_a), none(&p->knee_b);
        none(&p->peak_ratio);
        if (a.sc.k && stats_curve_boot(&a.sc, &o, &ca, NULL, NULL) == 0)
            p->peak_a = ca.peak, p->knee_a = ca.knee_n;
        if (b.sc.k && stats_curve_boot(&b.sc, &o, &cb, NULL, NULL) == 0)
            p->peak_b = cb.peak, p->knee_b = cb.knee_n;
        if (a.sc.k && b.sc.k)
            stats_peak_ratio_boot(&a.sc, &b.sc, &o, &p->peak_ratio);
        reps_free(&a);
        reps_free(&b);
    }
    v->sc = xcalloc(cv->nc + 1, sizeof *v->sc);
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
        if (c->base < 0 || (size_t)c->base == i || cv->c[c->base].cpus >= c->cpus)
            continue;
        const struct curve *base = &cv->c[c->base];
        struct verdict_scaling *s = &v->sc[v->nsc];
        struct reps a, b;
        reps_of(cv, base, &a);
        reps_of(cv, c, &b);
        none(&s->ratio);
        if (a.sc.k && b.sc.k && stats_peak_ratio_boot(&a.sc, &b.sc, &o, &s->ratio) == 0) {
            double k = (double)c->cpus / base->cpus;
            s->c = (int)i, s->base = c->base;
            s->eff = (1 + s->ratio.est) / k;
            s->eff_lo = (1 + s->ratio.lo) / k;
            s->eff_hi = (1 + s->ratio.hi) / k;
            v->nsc++;
        }
        reps_free(&a);
        reps_free(&b);
    }
}
