/*
 * curves_build.c - the curves of what curves_load.c read: the rows of every
 * directory grouped by (directory, engine, workload, variant, CPU count), a
 * point per client thread count with its median and spread over repeats,
 * latency, efficiency, the USL fit, peak and knee; each curve against the
 * curve of the same results with the fewest CPUs; then the labels
 * (curves_label.c) and the kernel baseline (curves_baseline.c).
 *
 * The one idea: one model for every view. gnuplot (plot/), the page (page/)
 * and the comparisons read what is computed here with stats.h, so the
 * numbers in summary.csv, on a picture and on the page are the same.
 *
 * Never draw, format for a view or print here.
 */
#include "analysis/curves.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "stats/stats.h"

/* ---- curves ----
 * Rows are grouped by sorting references to them once (curve key, then
 * threads), so building is O(rows log rows): scanning every row per curve
 * took 17 s for 1000 curves and minutes for 3000. */

struct row_ref {
    const struct result_row *r;
    int dir;
    size_t at; /* row index in its directory, for first-appearance order */
};

static int cmp_curve_key(const struct row_ref *a, const struct row_ref *b)
{
    int c;
    if (a->dir != b->dir)
        return a->dir < b->dir ? -1 : 1;
    if ((c = strcmp(a->r->engine, b->r->engine)) || (c = strcmp(a->r->workload, b->r->workload)) ||
        (c = strcmp(a->r->variant, b->r->variant)))
        return c;
    return (a->r->cpus > b->r->cpus) - (a->r->cpus < b->r->cpus);
}

static int cmp_ref(const void *pa, const void *pb)
{
    const struct row_ref *a = pa, *b = pb;
    int c = cmp_curve_key(a, b);
    if (c)
        return c;
    if (a->r->threads != b->r->threads)
        return a->r->threads < b->r->threads ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

/* One curve from its rows, sorted by threads: a point per thread count. */
static void build_curve(struct curve *c, const struct row_ref *ref, size_t n)
{
    double *v = xmalloc(5 * (n + 1) * sizeof *v), *l50 = v + n + 1, *l95 = l50 + n + 1,
           *l99 = l95 + n + 1, *idle = l99 + n + 1;
    size_t t = 0;
    for (size_t i = 0; i < n && t < CURVE_MAXPTS;) {
        size_t m = 0, ni = 0;
        int th = ref[i].r->threads, unmeasured = 0;
        for (; i < n && ref[i].r->threads == th; i++) {
            const struct result_row *r = ref[i].r;
            v[m] = r->tps, l50[m] = r->lat_p50_ms, l95[m] = r->lat_p95_ms;
            unmeasured |= isnan(r->lat_p50_ms) || isnan(r->lat_p95_ms) || isnan(r->lat_p99_ms);
            l99[m++] = r->lat_p99_ms;
            if (r->idle_pct > 0 || r->server_cpu_s > 0)
                idle[ni++] = r->idle_pct;
        }
        c->n[t] = th;
        stats_summarize(v, m, &c->tp[t]);
        c->x[t] = c->tp[t].median;
        /* a repeat without latencies (results.h's NAN): the point has none */
        c->p50[t] = unmeasured ? NAN : stats_median(l50, m);
        c->p95[t] = unmeasured ? NAN : stats_median(l95, m);
        c->p99[t] = unmeasured ? NAN : stats_median(l99, m);
        c->idle[t] = ni ? stats_median(idle, ni) : -1;
        t++;
    }
    free(v);
    c->k = t;
    for (t = 0; t < c->k; t++) {
        c->eff[t] = stats_efficiency_cpus(c->n, c->x, t, c->cpus);
        c->superlinear[t] = stats_superlinear(c->n, c->x, t, c->cpus);
    }
    c->fit_ok = 0;
    if (stats_usl_fit(c->n, c->x, c->k, &c->usl) < 0)
        snprintf(c->nofit, sizeof c->nofit, "%s",
                 c->k < 3 ? "fewer than 3 thread counts" : "no positive throughput");
    else
        c->fit_ok = stats_usl_meaningful(&c->usl, c->k, c->nofit, sizeof c->nofit);
    c->peak = stats_peak(c->x, c->k);
    c->knee = stats_knee(c->n, c->x, c->k);
}

void curves_of_rows(const struct result_row *rows, size_t n, const char *variant, int cpus,
                    struct curve *c)
{
    struct row_ref *ref = xcalloc(n + 1, sizeof *ref);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (rows[i].cpus == cpus && !strcmp(rows[i].variant, variant))
            ref[k++] = (struct row_ref){&rows[i], 0, i};
    qsort(ref, k, sizeof *ref, cmp_ref);
    memset(c, 0, sizeof *c);
    c->cpus = cpus;
    snprintf(c->variant, sizeof c->variant, "%s", variant);
    if (k) {
        snprintf(c->engine, sizeof c->engine, "%s", ref[0].r->engine);
        snprintf(c->workload, sizeof c->workload, "%s", ref[0].r->workload);
        build_curve(c, ref, k);
    }
    c->base = -1;
    free(ref);
}

struct curve_order {
    struct curve c;
    int dir;
    size_t first;
};

static int cmp_order(const void *pa, const void *pb)
{
    const struct curve_order *a = pa, *b = pb;
    if (a->dir != b->dir)
        return a->dir < b->dir ? -1 : 1;
    return (a->first > b->first) - (a->first < b->first);
}

/* Every curve of every directory, in order of first appearance. */
static void build_curves(struct curves *cv)
{
    size_t n = 0;
    for (size_t d = 0; d < cv->ndirs; d++)
        n += cv->dirs[d].rs.n;
    struct row_ref *ref = xcalloc(n + 1, sizeof *ref);
    size_t k = 0;
    for (size_t d = 0; d < cv->ndirs; d++)
        for (size_t i = 0; i < cv->dirs[d].rs.n; i++)
            ref[k++] = (struct row_ref){&cv->dirs[d].rs.rows[i], (int)d, i};
    qsort(ref, n, sizeof *ref, cmp_ref);
    struct curve_order *o = xcalloc(n + 1, sizeof *o);
    size_t nc = 0;
    for (size_t i = 0, j; i < n; i = j) {
        size_t first = ref[i].at;
        for (j = i + 1; j < n && !cmp_curve_key(&ref[i], &ref[j]); j++)
            first = ref[j].at < first ? ref[j].at : first;
        struct curve *c = &o[nc].c;
        const struct result_row *r = ref[i].r;
        c->dir = ref[i].dir;
        c->cpus = r->cpus;
        snprintf(c->engine, sizeof c->engine, "%s", r->engine);
        snprintf(c->workload, sizeof c->workload, "%s", r->workload);
        snprintf(c->variant, sizeof c->variant, "%s", r->variant);
        build_curve(c, ref + i, j - i);
        o[nc].dir = ref[i].dir;
        o[nc++].first = first;
    }
    qsort(o, nc, sizeof *o, cmp_order);
    cv->c = xcalloc(nc + 1, sizeof *cv->c);
    for (size_t i = 0; i < nc; i++)
        cv->c[i] = o[i].c;
    cv->nc = nc;
    free(o);
    free(ref);
}

/* Each curve against the curve with the fewest CPUs of its results dir,
 * engine and workload (the variant differs by design: "up", "smp-k2"). */
static void cpu_scaling(struct curves *cv)
{
    for (size_t i = 0; i < cv->nc; i++) {
        struct curve *c = &cv->c[i];
        c->base = -1;
        for (size_t j = 0; j < cv->nc; j++) {
            const struct curve *o = &cv->c[j];
            if (o->dir != c->dir || strcmp(o->engine, c->engine) ||
                strcmp(o->workload, c->workload) || o->cpus <= 0)
                continue;
            if (c->base < 0 || o->cpus < cv->c[c->base].cpus)
                c->base = (int)j;
        }
        for (size_t t = 0; t < c->k; t++) {
            c->cpu_speedup[t] = c->cpu_eff[t] = NAN;
            if (c->base < 0 || c->cpus <= 0)
                continue;
            const struct curve *b = &cv->c[c->base];
            for (size_t u = 0; u < b->k; u++)
                if (b->n[u] == c->n[t] && b->x[u] > 0) {
                    c->cpu_speedup[t] = c->x[t] / b->x[u];
                    c->cpu_eff[t] = c->cpu_speedup[t] / ((double)c->cpus / b->cpus);
                }
        }
    }
}

void curves_build(struct curves *cv)
{
    build_curves(cv);
    cpu_scaling(cv);
    curves_label(cv);
    curves_baseline_load(cv);
}

int curves_match(const struct curves *cv, size_t i)
{
    const struct curve *c = &cv->c[i];
    if (c->dir == 0)
        return -1;
    for (size_t j = 0; j < cv->nc; j++) {
        const struct curve *o = &cv->c[j];
        if (o->dir == 0 && o->cpus == c->cpus && !strcmp(o->workload, c->workload) &&
            !strcmp(o->variant, c->variant))
            return (int)j;
    }
    return -1;
}
