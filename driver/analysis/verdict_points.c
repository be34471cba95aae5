/*
 * verdict_points.c - B against A, point by point and figure by figure.
 *
 * The one idea: one family of tests for each question's whole grid. Every
 * shared point of every pair gets an effect per figure (the ratio of
 * geometric means over repeats, Welch's interval on the logs); the q-values
 * come from Benjamini-Hochberg over all of one question's points together
 * (a later directory against the first: what `compare A B` asks), so an A/A
 * comparison of any size marks next to nothing, whatever else is on the
 * page; each point is then classed against the threshold. Where a figure's
 * noise is even across the grid, its points borrow the grid's estimate of
 * it (stats/moderate.h) before the test.
 *
 * The unit of replication is the repeat, or the boot where a point's repeats
 * ran in two boots or more (a kernels study's): each boot's median then.
 *
 * Never a verdict from what one side lacks: a point measured on one side
 * only is counted apart, and the gate reads it as undecided.
 */
#include "analysis/verdict_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/fdr.h"
#include "stats/moderate.h"

#define MAXREP 256

static int same_curve(const struct result_row *r, const struct curve *c)
{
    return r->cpus == c->cpus && !strcmp(r->variant, c->variant) && !strcmp(r->engine, c->engine) &&
           !strcmp(r->workload, c->workload);
}

static double figure(const struct result_row *r, enum verdict_fig f)
{
    switch (f) {
    case VF_TPS:
        return r->tps;
    case VF_P95:
        return r->lat_p95_ms > 0 ? r->lat_p95_ms : NAN;
    case VF_CLIENT_CPU:
        return r->client_cpu_per_txn_us > 0 ? r->client_cpu_per_txn_us : NAN;
    default:
        return r->server_cpu_s > 0 && r->time_s > 0 ? r->server_cpu_s / (r->tps * r->time_s) * 1e6
                                                    : NAN;
    }
}

/* Repeats measured in two boots or more are not independent of their boot:
 * the boot is the unit, each its repeats' median. */
static size_t by_boot(double *v, const char (*boot)[40], size_t n)
{
    size_t nb = 0;
    double med[MAXREP], x[MAXREP];
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(boot[j], boot[i]);
        if (seen)
            continue;
        size_t k = 0;
        for (size_t j = i; j < n; j++)
            if (!strcmp(boot[j], boot[i]))
                x[k++] = v[j];
        med[nb++] = stats_median(x, k);
    }
    if (nb < 2)
        return n; /* one boot: its repeats are the unit */
    memcpy(v, med, nb * sizeof *v);
    return nb;
}

size_t verdict_values(const struct curves *cv, const struct curve *c, double threads,
                      enum verdict_fig f, double *v, size_t max, int *dropped)
{
    const struct result_set *rs = &cv->dirs[c->dir].rs;
    static _Thread_local char boot[MAXREP][40];
    size_t n = 0;
    if (max > MAXREP)
        max = MAXREP;
    for (size_t i = 0; i < rs->n; i++) {
        const struct result_row *r = &rs->rows[i];
        if (r->threads != (int)threads || !same_curve(r, c))
            continue;
        if (r->disturbed || !(r->tps > 0)) {
            *dropped += f == VF_TPS; /* counted once, with the first figure */
            continue;
        }
        double x = figure(r, f);
        if (!isnan(x) && n < max) {
            snprintf(boot[n], sizeof boot[n], "%s", r->boot);
            v[n++] = x;
        }
    }
    return by_boot(v, (const char(*)[40])boot, n);
}

static int has_threads(const struct curve *c, double t)
{
    for (size_t i = 0; i < c->k; i++)
        if (c->n[i] == t)
            return 1;
    return 0;
}

static void add_point(struct verdict *v, size_t *cap, int pair, const struct curves *cv,
                      double threads, enum verdict_fig f)
{
    const struct verdict_pair *p = &v->pairs[pair];
    double a[MAXREP], b[MAXREP];
    int dropped = 0;
    size_t na = verdict_values(cv, &cv->c[p->ca], threads, f, a, MAXREP, &dropped);
    size_t nb = verdict_values(cv, &cv->c[p->cb], threads, f, b, MAXREP, &dropped);
    if (f != VF_TPS && na == 0 && nb == 0)
        return; /* a figure neither side measured (no latencies, no CPU): no point */
    if (v->npts == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        v->pts = xrealloc(v->pts, *cap * sizeof *v->pts);
    }
    struct verdict_point *q = &v->pts[v->npts++];
    memset(q, 0, sizeof *q);
    q->pair = pair, q->ca = p->ca, q->cb = p->cb, q->threads = threads, q->fig = f;
    q->dropped = dropped;
    v->dropped += (size_t)dropped;
    q->a_med = na ? stats_median(a, na) : NAN;
    q->b_med = nb ? stats_median(b, nb) : NAN;
    struct stats_effect_opt eo = {.conf = v->opt.conf};
    stats_effect(a, na, b, nb, &eo, &q->e);
}

/* The question point i answers: its B side's directory (each later
 * directory against the first is one question, as `compare A B` asks it). */
static int question(const struct verdict *v, size_t i)
{
    return v->pairs[v->pts[i].pair].db;
}

/* One question's points (those of directory dir) as a family: moderate each
 * figure where its noise is even, then one BH over its tested points and
 * figures, into q (NAN where untested). The page over a study asks several
 * questions at once and each is answered as `compare A B` would answer it:
 * another question's large real effects must not loosen this one's BH. */
static void family(struct verdict *v, int dir, double *q)
{
    size_t *idx = xcalloc(v->npts + 1, sizeof *idx), n = 0;
    for (size_t i = 0; i < v->npts; i++)
        if (question(v, i) == dir)
            idx[n++] = i;
    if (v->opt.moderate)
        for (int f = 0; f < VF_N; f++) {
            size_t m = 0;
            struct stats_effect *e = xcalloc(n + 1, sizeof *e);
            for (size_t j = 0; j < n; j++)
                if (v->pts[idx[j]].fig == (enum verdict_fig)f)
                    e[m++] = v->pts[idx[j]].e;
            struct stats_moderation mod;
            if (stats_moderate(e, m, 0, &mod) == 0)
                for (size_t j = 0, k = 0; j < n; j++)
                    if (v->pts[idx[j]].fig == (enum verdict_fig)f)
                        v->pts[idx[j]].e = e[k++];
            free(e);
        }
    double *p = xcalloc(n + 1, sizeof *p), *qq = xcalloc(n + 1, sizeof *qq);
    for (size_t j = 0; j < n; j++)
        p[j] = v->pts[idx[j]].e.p; /* NAN: no test (one run a side, no spread) */
    stats_bh(p, n, qq);
    for (size_t j = 0; j < n; j++)
        q[idx[j]] = qq[j];
    free(p);
    free(qq);
    free(idx);
}

/* Each question's family, then the classes. */
static void decide(struct verdict *v, const struct curves *cv)
{
    double *q = xcalloc(v->npts + 1, sizeof *q);
    for (size_t d = 1; d < cv->ndirs; d++)
        family(v, (int)d, q);
    v->tested = 0;
    for (size_t i = 0; i < v->npts; i++) {
        struct verdict_point *pt = &v->pts[i];
        v->tested += !isnan(pt->e.p);
        struct stats_class_opt co = {.delta = v->opt.delta,
                                     .fdr = v->opt.fdr,
                                     .dir = pt->fig == VF_TPS ? STATS_HIGHER_BETTER
                                                              : STATS_LOWER_BETTER};
        stats_classify(&pt->e, q[i], &co, &pt->v);
        struct verdict_pair *pair = &v->pairs[pt->pair];
        pair->better += pt->v.cls == STATS_BETTER;
        pair->worse += pt->v.cls == STATS_WORSE;
        pair->same += pt->v.cls == STATS_SAME;
        pair->undecided += pt->v.cls == STATS_INCONCLUSIVE;
    }
    free(q);
}

void verdict_points(struct verdict *v, const struct curves *cv)
{
    size_t cap = 0;
    for (size_t i = 0; i < v->npairs; i++) {
        struct verdict_pair *p = &v->pairs[i];
        const struct curve *a = &cv->c[p->ca], *b = &cv->c[p->cb];
        p->first = v->npts;
        for (size_t t = 0; t < a->k; t++) {
            if (!has_threads(b, a->n[t])) {
                if (!v->one_side++)
                    snprintf(v->one_side_eg, sizeof v->one_side_eg,
                             "%s: %s on %d CPU%s at %g threads", cv->dirs[a->dir].name, a->variant,
                             a->cpus, a->cpus == 1 ? "" : "s", a->n[t]);
                continue;
            }
            for (int f = 0; f < VF_N; f++)
                add_point(v, &cap, (int)i, cv, a->n[t], (enum verdict_fig)f);
        }
        for (size_t t = 0; t < b->k; t++)
            if (!has_threads(a, b->n[t]) && !v->one_side++)
                snprintf(v->one_side_eg, sizeof v->one_side_eg, "%s: %s on %d CPU%s at %g threads",
                         cv->dirs[b->dir].name, b->variant, b->cpus, b->cpus == 1 ? "" : "s",
                         b->n[t]);
        p->n = v->npts - p->first;
    }
    decide(v, cv);
}
