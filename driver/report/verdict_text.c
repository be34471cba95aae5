/*
 * verdict_text.c - the verdict in plain text: what `dbscale compare` prints
 * and writes as verdict.txt, short enough to paste into a mail or a bug.
 *
 * The one idea: every sentence carries its figures and, where it compares,
 * its interval; a point that could not be decided says so and how many
 * repeats would decide it. The words of a curve's limit are limit.c's own,
 * so this text and the page say the same thing.
 */
#include "report/verdict_text.h"

#include "analysis/verdict_words.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static void class_lines(const struct verdict *v, const struct curves *cv, enum stats_class cls,
                        const char *name, size_t max, struct sbuf *out)
{
    size_t n = 0, shown = 0;
    for (size_t i = 0; i < v->npts; i++)
        n += v->pts[i].v.cls == cls;
    if (!n)
        return;
    sbuf_printf(out, "%s: %zu point%s\n", name, n, n == 1 ? "" : "s");
    for (size_t i = 0; i < v->npts && shown < max; i++) {
        if (v->pts[i].v.cls != cls)
            continue;
        sbuf_printf(out, "  ");
        verdict_point_line(v, cv, i, out);
        const struct verdict_explain *x = verdict_explain_of(v, i);
        if (x && (x->nch || x->kernel[0]) && !verdict_explain_said(v, x, i)) {
            sbuf_printf(out, "\n    what changed: ");
            verdict_explain_line(x, out);
        }
        sbuf_printf(out, "\n");
        shown++;
    }
    if (n > shown)
        sbuf_printf(out, "  ... and %zu more (verdict.json has every point)\n", n - shown);
}

static void interval(struct sbuf *b, const struct stats_interval *i, const char *fmt)
{
    if (isnan(i->est)) {
        sbuf_printf(b, "n/a");
        return;
    }
    sbuf_printf(b, fmt, i->est);
    if (!isnan(i->lo)) {
        sbuf_printf(b, " (");
        sbuf_printf(b, fmt, i->lo);
        sbuf_printf(b, "..");
        sbuf_printf(b, fmt, i->hi);
        sbuf_printf(b, ")");
    }
}

static void curves_part(const struct verdict *v, const struct curves *cv, struct sbuf *out)
{
    for (size_t i = 0; i < v->npairs; i++) {
        const struct verdict_pair *p = &v->pairs[i];
        const struct curve *b = &cv->c[p->cb];
        sbuf_printf(out, "  %s on %d CPU%s: peak tps ", b->variant, b->cpus,
                    b->cpus == 1 ? "" : "s");
        interval(out, &p->peak_a, "%.0f");
        sbuf_printf(out, " -> ");
        interval(out, &p->peak_b, "%.0f");
        sbuf_printf(out, ", change ");
        if (isnan(p->peak_ratio.est))
            sbuf_printf(out, "n/a");
        else {
            verdict_pct(out, p->peak_ratio.est);
            if (!isnan(p->peak_ratio.lo)) {
                sbuf_printf(out, " (");
                verdict_pct(out, p->peak_ratio.lo);
                sbuf_printf(out, "..");
                verdict_pct(out, p->peak_ratio.hi);
                sbuf_printf(out, ")%s",
                            p->peak_ratio.lo <= 0 && p->peak_ratio.hi >= 0 ? ", not established"
                                                                           : "");
            }
        }
        sbuf_printf(out, "; knee at ");
        interval(out, &p->knee_a, "%g");
        sbuf_printf(out, " -> ");
        interval(out, &p->knee_b, "%g");
        sbuf_printf(out, " threads\n");
    }
}

void verdict_text(const struct verdict *v, const struct curves *cv, struct sbuf *out)
{
    if (cv->ndirs > 1) {
        sbuf_printf(out, "dbscale verdict: ");
        for (size_t d = 1; d < cv->ndirs; d++)
            sbuf_printf(out, "%s%s", d > 1 ? ", " : "", cv->dirs[d].name);
        sbuf_printf(out, " against %s: %s (%s)\n", cv->dirs[0].name, verdict_gate_name(v->gate),
                    v->gate_why);
        sbuf_printf(out,
                    "  %zu tests over %zu points x figures; q-values: Benjamini-Hochberg at "
                    "%.0f%% over each directory's against the first; the same: within %.0f%%\n",
                    v->tested, v->npts, 100 * v->opt.fdr, 100 * v->opt.delta);
        class_lines(v, cv, STATS_WORSE, "worse", 10, out);
        class_lines(v, cv, STATS_BETTER, "better", 10, out);
        class_lines(v, cv, STATS_INCONCLUSIVE, "undecided", 5, out);
        size_t same = 0;
        for (size_t i = 0; i < v->npts; i++)
            same += v->pts[i].v.cls == STATS_SAME;
        if (same)
            sbuf_printf(out, "the same within %.0f%%: %zu point%s\n", 100 * v->opt.delta, same,
                        same == 1 ? "" : "s");
        if (v->one_side)
            sbuf_printf(out, "on one side only: %zu point%s (e.g. %s)\n", v->one_side,
                        v->one_side == 1 ? "" : "s", v->one_side_eg);
        if (v->npairs) {
            sbuf_printf(out, "curves (bootstrap over repeats, %.0f%% intervals):\n",
                        100 * v->opt.conf);
            curves_part(v, cv, out);
        }
    }
    if (v->k.on && v->k.smp.n) {
        sbuf_printf(out, "kernels:\n");
        for (size_t i = 0; i < v->k.smp.n; i++) {
            sbuf_printf(out, "  ");
            kverdict_sentence(&v->k.kv, &v->k.smp.s[i], out);
            sbuf_printf(out, "\n");
        }
    }
    if (v->nlim)
        sbuf_printf(out, "where each curve stops scaling, and why:\n");
    for (size_t i = 0; i < v->nlim; i++) {
        const struct limit *l = &v->lim[i];
        const struct curve *c = &cv->c[l->curve];
        char s[1024];
        limit_sentence(l, c, s, sizeof s);
        sbuf_printf(out, "  %s, %s on %d CPU%s: %s\n", cv->dirs[c->dir].name, c->variant, c->cpus,
                    c->cpus == 1 ? "" : "s", s);
    }
}
