/*
 * verdict_explain.c - for every point found better or worse, what changed
 * most per transaction in the why figures (the budget's parts, the server's
 * user and kernel CPU, the wait events, context switches and migrations),
 * whether both sides have a profile there (the page then draws the
 * differential flame graph), and how the kernel baseline at that CPU count
 * moved, so a reader can tell whether the kernel explains the change or the
 * database does.
 *
 * The one idea: a change is explained by figures measured on both sides,
 * largest first; nothing measured on one side only is a reason.
 */
#include "analysis/verdict_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/stats.h"

static void add(struct verdict_change *ch, int *n, int max, const char *what, double a, double b,
                const char *unit)
{
    if (isnan(a) || isnan(b) || (fabs(b - a) < 1 && !strcmp(unit, "us/txn")))
        return;
    struct verdict_change c = {.a = a, .b = b, .unit = unit};
    snprintf(c.what, sizeof c.what, "%s", what);
    /* kept largest first by the change's size */
    int at = *n;
    while (at > 0 && fabs(ch[at - 1].b - ch[at - 1].a) < fabs(b - a))
        at--;
    if (at >= max)
        return;
    for (int i = (*n < max ? *n : max - 1); i > at; i--)
        ch[i] = ch[i - 1];
    ch[at] = c;
    if (*n < max)
        (*n)++;
}

static void why_changes(const struct whypoint *a, const struct whypoint *b, const struct budget *ba,
                        const struct budget *bb, struct verdict_explain *x)
{
    struct verdict_change t[16];
    int n = 0;
    for (int p = 0; p < BP_N; p++)
        add(t, &n, 16, budget_part_name((enum budget_part)p), ba->part[p], bb->part[p], "us/txn");
    add(t, &n, 16, "server user CPU", a->cat[WP_USER], b->cat[WP_USER], "us/txn");
    add(t, &n, 16, "server kernel CPU", a->cat[WP_KERNEL], b->cat[WP_KERNEL], "us/txn");
    for (int i = 0; i < b->nev; i++)
        add(t, &n, 16, b->ev[i].event, whypoint_event(a, b->ev[i].event), b->ev[i].us, "us/txn");
    for (int i = 0; i < a->nev; i++)
        if (whypoint_event(b, a->ev[i].event) == 0)
            add(t, &n, 16, a->ev[i].event, a->ev[i].us, 0, "us/txn");
    for (int i = 0; i < n && x->nch < VERDICT_CHANGES; i++)
        x->ch[x->nch++] = t[i];
    /* counts per transaction, where they moved by half or more */
    const double ca[3] = {a->voluntary_txn, a->involuntary_txn, a->migrations_txn};
    const double cb[3] = {b->voluntary_txn, b->involuntary_txn, b->migrations_txn};
    static const char *const names[3] = {"voluntary switches", "involuntary switches",
                                         "migrations"};
    for (int i = 0; i < 3 && x->nch < VERDICT_CHANGES; i++)
        if (!isnan(ca[i]) && !isnan(cb[i]) && ca[i] > 0 &&
            (cb[i] >= 1.5 * ca[i] || cb[i] <= ca[i] / 1.5)) {
            struct verdict_change *c = &x->ch[x->nch++];
            snprintf(c->what, sizeof c->what, "%s", names[i]);
            c->a = ca[i], c->b = cb[i], c->unit = "/txn";
        }
}

static int profiled(const struct evidence *ev, const struct curve *c, double threads)
{
    const struct whycsv *w = &ev->d[c->dir].w;
    for (size_t i = 0; i < w->nprof; i++)
        if (w->prof[i].k.cpus == c->cpus && w->prof[i].k.threads == (int)threads &&
            !strcmp(w->prof[i].k.variant, c->variant) && w->prof[i].folded[0])
            return 1;
    return 0;
}

/* The median of a micro.csv point (test, mode, tasks, cpus), or NAN. */
static double micro_at(const struct compare_sets *ss, const struct compare_point *like)
{
    for (size_t s = 0; s < ss->n; s++)
        for (size_t i = 0; i < ss->s[s].n; i++) {
            const struct compare_point *p = &ss->s[s].pts[i];
            if (p->n && !strcmp(p->f[0], like->f[0]) && !strcmp(p->f[1], like->f[1]) &&
                !strcmp(p->f[2], like->f[2]) && !strcmp(p->f[3], like->f[3]))
                return stats_median(p->v, p->n);
        }
    return NAN;
}

/* The kernel baseline of B's directory against A's at the pair's CPU count:
 * every test both ran at the same tasks; the largest change is named. */
static void kernel_change(const struct verdict *v, const struct curve *a, const struct curve *b,
                          double tps_change, struct verdict_explain *x)
{
    const struct compare_sets *ma = &v->ev.d[a->dir].micro, *mb = &v->ev.d[b->dir].micro;
    double worst = 0;
    char name[96] = "";
    size_t tests = 0;
    char cpus[16];
    snprintf(cpus, sizeof cpus, "%d", a->cpus);
    for (size_t s = 0; s < ma->n; s++)
        for (size_t i = 0; i < ma->s[s].n; i++) {
            const struct compare_point *p = &ma->s[s].pts[i];
            if (!p->n || strcmp(p->f[3], cpus) != 0)
                continue;
            double xa = stats_median(p->v, p->n), xb = micro_at(mb, p);
            if (!(xa > 0) || isnan(xb))
                continue;
            double r = xb / xa - 1;
            tests++;
            if (fabs(r) > fabs(worst))
                worst = r, snprintf(name, sizeof name, "%s (%s, %s tasks)", p->f[0],
                                    !strcmp(p->f[1], "t") ? "threads" : "processes", p->f[2]);
        }
    if (!tests)
        return;
    snprintf(x->kernel, sizeof x->kernel,
             "kernel baseline on %d CPU%s, %zu point%s: the largest change %s %+.0f%%", a->cpus,
             a->cpus == 1 ? "" : "s", tests, tests == 1 ? "" : "s", name, 100 * worst);
    x->kernel_explains = fabs(worst) >= v->opt.delta && (worst > 0) == (tps_change > 0);
}

void verdict_explain(struct verdict *v, const struct curves *cv)
{
    v->ex = xcalloc(v->npts + 1, sizeof *v->ex);
    for (size_t i = 0; i < v->npts; i++) {
        const struct verdict_point *p = &v->pts[i];
        if (p->v.cls != STATS_BETTER && p->v.cls != STATS_WORSE)
            continue;
        int seen = 0; /* one explanation per (pair, threads) */
        for (size_t j = 0; j < v->nex; j++) {
            const struct verdict_point *q = &v->pts[v->ex[j].point];
            seen |= q->pair == p->pair && q->threads == p->threads;
        }
        if (seen)
            continue;
        struct verdict_explain *x = &v->ex[v->nex++];
        x->point = (int)i;
        const struct curve *a = &cv->c[p->ca], *b = &cv->c[p->cb];
        const struct whypoint *wa = evidence_point(&v->ev, cv, (size_t)p->ca, p->threads);
        const struct whypoint *wb = evidence_point(&v->ev, cv, (size_t)p->cb, p->threads);
        if (wa && wb) {
            struct budget ba, bb;
            size_t ta = 0, tb = 0;
            while (ta < a->k && a->n[ta] != p->threads)
                ta++;
            while (tb < b->k && b->n[tb] != p->threads)
                tb++;
            budget_of(wa, a->engine, p->threads, ta < a->k ? a->x[ta] : NAN, &ba);
            budget_of(wb, b->engine, p->threads, tb < b->k ? b->x[tb] : NAN, &bb);
            why_changes(wa, wb, &ba, &bb, x);
        }
        x->profiles = profiled(&v->ev, a, p->threads) && profiled(&v->ev, b, p->threads);
        double tps = p->fig == VF_TPS ? p->e.est : NAN;
        for (size_t j = 0; isnan(tps) && j < v->npts; j++)
            if (v->pts[j].pair == p->pair && v->pts[j].threads == p->threads &&
                v->pts[j].fig == VF_TPS)
                tps = v->pts[j].e.est;
        kernel_change(v, a, b, isnan(tps) ? 0 : tps, x);
    }
}
