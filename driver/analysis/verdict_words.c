/*
 * verdict_words.c - the verdict's words, in plain text: a compared point's
 * line and what changed at it. The text summary and the page both say
 * these (the page escapes them), so the two never word a figure apart; a
 * curve's limit has its sentence in limit.c.
 *
 * The one idea: a figure never goes out without what it compares and its
 * interval; an undecided point says why and how many repeats would decide it.
 */
#include "analysis/verdict_words.h"

#include <math.h>
#include <stdio.h>

void verdict_pct(struct sbuf *b, double v)
{
    if (isnan(v))
        sbuf_printf(b, "n/a");
    else
        sbuf_printf(b, "%+.0f%%", 100 * v);
}

void verdict_point_line(const struct verdict *v, const struct curves *cv, size_t i,
                        struct sbuf *out)
{
    const struct verdict_point *p = &v->pts[i];
    const struct curve *b = &cv->c[p->cb];
    verdict_pct(out, p->e.est);
    sbuf_printf(out, " %s at %g thread%s on %d CPU%s (%s)", verdict_fig_name(p->fig), p->threads,
                p->threads == 1 ? "" : "s", b->cpus, b->cpus == 1 ? "" : "s", b->variant);
    if (!isnan(p->e.lo)) {
        sbuf_printf(out, ", %.0f%% CI ", 100 * v->opt.conf);
        verdict_pct(out, p->e.lo);
        sbuf_printf(out, "..");
        verdict_pct(out, p->e.hi);
        sbuf_printf(out, ", q=%.2g", p->v.q);
    }
    sbuf_printf(out, ", %zu vs %zu repeats", p->e.na, p->e.nb);
    if (p->v.cls == STATS_INCONCLUSIVE) {
        sbuf_printf(out, ": %s", stats_reason_text(p->v.reason));
        if (p->v.repeats > 100)
            sbuf_printf(out, " (more than 100 repeats a side would be needed)");
        else if (p->v.repeats)
            sbuf_printf(out, " (about %zu repeats a side would decide it)", p->v.repeats);
    }
    if (p->dropped)
        sbuf_printf(out, "; %d level%s left out (disturbed or empty)", p->dropped,
                    p->dropped == 1 ? "" : "s");
}

/* A figure as a person reads it: 19400, 881, 45.2, 3.07, 0.00021 */
static void fig(struct sbuf *out, double v)
{
    double a = fabs(v);
    sbuf_printf(out,
                a >= 100              ? "%.0f"
                : a >= 10             ? "%.1f"
                : a >= 0.01 || a == 0 ? "%.2f"
                                      : "%.2g",
                v);
}

void verdict_explain_line(const struct verdict_explain *x, struct sbuf *out)
{
    for (int i = 0; i < x->nch; i++) {
        const struct verdict_change *c = &x->ch[i];
        sbuf_printf(out, "%s%s ", i ? "; " : "", c->what);
        fig(out, c->a);
        sbuf_printf(out, " -> ");
        fig(out, c->b);
        sbuf_printf(out, " %s", c->unit);
        if (c->a > 0 && c->b > 0) {
            sbuf_printf(out, " (");
            fig(out, c->b / c->a);
            sbuf_printf(out, "x)");
        }
    }
    if (x->kernel[0])
        sbuf_printf(out, "%s%s%s", x->nch ? "; " : "", x->kernel,
                    x->kernel_explains ? " (the kernel moved with the database)"
                                       : " (the kernel does not explain it)");
    if (x->profiles)
        sbuf_printf(out, "; both sides profiled: the page has the differential flame graph");
}

const struct verdict_explain *verdict_explain_of(const struct verdict *v, size_t i)
{
    for (size_t j = 0; j < v->nex; j++) {
        const struct verdict_point *q = &v->pts[v->ex[j].point];
        if (q->pair == v->pts[i].pair && q->threads == v->pts[i].threads)
            return &v->ex[j];
    }
    return NULL;
}

int verdict_explain_said(const struct verdict *v, const struct verdict_explain *x, size_t i)
{
    for (size_t j = 0; j < i; j++)
        if (v->pts[j].v.cls == v->pts[i].v.cls && verdict_explain_of(v, j) == x)
            return 1;
    return 0;
}
