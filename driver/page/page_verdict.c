/*
 * page_verdict.c - the verdict at the top of the page: against the first
 * directory, the gate and the points found worse or better (each with its
 * interval, q-value and what changed most), what could not be decided, the
 * curves' peaks and knees with their intervals; then, for every curve, where
 * it stops scaling and why, and its scaling over CPUs. The grid of every
 * compared point and the differential flame graphs are folded below
 * (<details>, no script), so a study of thousands of points still reads
 * from its conclusion down.
 *
 * The one idea: the page renders the verdict's value (analysis/verdict.h)
 * in the verdict's own words (verdict_words.h, limit.h), never its own.
 *
 * Never computes a figure; every string from a file goes through page_esc().
 */
#include "page/page_verdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/verdict_words.h"
#include "page/page_flame.h"
#include "page/page_html.h"
#include "results/folded.h"

#define LISTED 12 /* points listed per class before the rest is folded */

static void text_li(struct sbuf *b, const char *cls, const struct sbuf *t)
{
    sbuf_printf(b, "<li class=\"%s\">", cls);
    page_esc(b, t->s ? t->s : "");
    sbuf_printf(b, "</li>\n");
}

static void class_list(struct sbuf *b, const struct verdict *v, const struct curves *cv,
                       enum stats_class cls, const char *title)
{
    size_t n = 0, shown = 0;
    for (size_t i = 0; i < v->npts; i++)
        n += v->pts[i].v.cls == cls;
    if (!n)
        return;
    sbuf_printf(b, "<h3>%s: %zu point%s</h3>\n<ul class=\"points\">\n", title, n,
                n == 1 ? "" : "s");
    for (size_t i = 0; i < v->npts && shown < LISTED; i++) {
        if (v->pts[i].v.cls != cls)
            continue;
        struct sbuf t = {0};
        verdict_point_line(v, cv, i, &t);
        const struct verdict_explain *x = verdict_explain_of(v, i);
        if (x && (x->nch || x->kernel[0]) && !verdict_explain_said(v, x, i)) {
            sbuf_printf(&t, ". What changed: ");
            verdict_explain_line(x, &t);
        }
        text_li(b, stats_class_name(cls), &t);
        sbuf_free(&t);
        shown++;
    }
    sbuf_printf(b, "</ul>\n");
    if (n > shown)
        sbuf_printf(b,
                    "<p class=\"note\">... and %zu more, in the grid below and in "
                    "verdict.json.</p>\n",
                    n - shown);
}

static void interval(struct sbuf *b, const struct stats_interval *i, const char *fmt)
{
    char x[64];
    if (isnan(i->est)) {
        sbuf_printf(b, "n/a");
        return;
    }
    snprintf(x, sizeof x, fmt, i->est);
    sbuf_printf(b, "%s", x);
    if (!isnan(i->lo)) {
        sbuf_printf(b, " <small>(");
        snprintf(x, sizeof x, fmt, i->lo);
        sbuf_printf(b, "%s..", x);
        snprintf(x, sizeof x, fmt, i->hi);
        sbuf_printf(b, "%s)</small>", x);
    }
}

static void change(struct sbuf *b, const struct stats_interval *i)
{
    struct sbuf t = {0};
    verdict_pct(&t, i->est);
    if (!isnan(i->lo)) {
        sbuf_printf(&t, " (");
        verdict_pct(&t, i->lo);
        sbuf_printf(&t, "..");
        verdict_pct(&t, i->hi);
        sbuf_printf(&t, ")%s", i->lo <= 0 && i->hi >= 0 ? ", not established" : "");
    }
    page_esc(b, t.s);
    sbuf_free(&t);
}

static void pairs_table(struct sbuf *b, const struct verdict *v, const struct curves *cv)
{
    sbuf_printf(b, "<table class=\"verdict-curves\">\n<tr><th class=\"curve\">curve</th><th>peak "
                   "tps A</th><th>peak tps B</th><th>change at the peak</th><th>knee A</th>"
                   "<th>knee B</th><th>worse / better / same / undecided</th></tr>\n");
    for (size_t i = 0; i < v->npairs; i++) {
        const struct verdict_pair *p = &v->pairs[i];
        const struct curve *c = &cv->c[p->cb];
        sbuf_printf(b, "<tr><th class=\"curve\">");
        page_escf(b, "%s, %s on %d CPU%s", c->workload, c->variant, c->cpus,
                  c->cpus == 1 ? "" : "s");
        sbuf_printf(b, "</th><td>");
        interval(b, &p->peak_a, "%.0f");
        sbuf_printf(b, "</td><td>");
        interval(b, &p->peak_b, "%.0f");
        sbuf_printf(b, "</td><td>");
        change(b, &p->peak_ratio);
        sbuf_printf(b, "</td><td>");
        interval(b, &p->knee_a, "%g");
        sbuf_printf(b, "</td><td>");
        interval(b, &p->knee_b, "%g");
        sbuf_printf(b, "</td><td>%zu / %zu / %zu / %zu</td></tr>\n", p->worse, p->better, p->same,
                    p->undecided);
    }
    sbuf_printf(b,
                "</table>\n<p class=\"note\">Peaks and knees with their %.0f%% intervals from "
                "%zu bootstrap resamples of the repeats; a knee is the first thread count "
                "whose gain per added thread is under 10%% of linear.</p>\n",
                100 * v->opt.conf, v->opt.boot);
}

/* Every compared point, folded. */
static void grid(struct sbuf *b, const struct verdict *v, const struct curves *cv)
{
    if (!v->npts)
        return;
    sbuf_printf(b,
                "<details class=\"grid\"><summary>Every point compared (%zu)</summary>\n"
                "<table>\n<tr><th class=\"curve\">point</th><th>A</th><th>B</th><th>change "
                "(interval)</th><th>q</th><th>smallest change it could show</th>"
                "<th>class</th></tr>\n",
                v->npts);
    for (size_t i = 0; i < v->npts; i++) {
        const struct verdict_point *p = &v->pts[i];
        const struct curve *c = &cv->c[p->cb];
        sbuf_printf(b, "<tr class=\"%s\"><th class=\"curve\">", stats_class_name(p->v.cls));
        page_escf(b, "%s, %g thr, %d CPU%s, %s", c->variant, p->threads, c->cpus,
                  c->cpus == 1 ? "" : "s", verdict_fig_name(p->fig));
        sbuf_printf(b, "</th><td>%.4g</td><td>%.4g</td><td>", p->a_med, p->b_med);
        struct stats_interval ci = {.est = p->e.est, .lo = p->e.lo, .hi = p->e.hi};
        change(b, &ci);
        sbuf_printf(b, "</td><td>%.2g</td><td>", p->v.q);
        if (isnan(p->e.mde))
            sbuf_printf(b, "n/a");
        else
            sbuf_printf(b, "&plusmn;%.0f%%", 100 * p->e.mde);
        sbuf_printf(b, "</td><td>%s", stats_class_name(p->v.cls));
        if (p->v.cls == STATS_INCONCLUSIVE)
            page_escf(b, ": %s", stats_reason_text(p->v.reason));
        sbuf_printf(b, "</td></tr>\n");
    }
    sbuf_printf(b, "</table>\n</details>\n");
}

/* The folded stacks of every profile at a point of curve c, as text. */
static void folded_of(const struct verdict *v, const struct curves *cv, const struct curve *c,
                      double threads, struct sbuf *out)
{
    const struct whycsv *w = &v->ev.d[c->dir].w;
    for (size_t i = 0; i < w->nprof; i++) {
        const struct why_prof *p = &w->prof[i];
        if (p->k.cpus != c->cpus || p->k.threads != (int)threads ||
            strcmp(p->k.variant, c->variant) || !p->folded[0] || strstr(p->folded, ".."))
            continue;
        char path[1200], err[1400];
        snprintf(path, sizeof path, "%s/%s", cv->dirs[c->dir].path, p->folded);
        struct folded f = {0}; /* through the readers' one door: a regular file of sane size */
        if (folded_add_file(&f, path, err, sizeof err) == 0 && f.text.s)
            sbuf_add(out, f.text.s, f.text.len);
        folded_free(&f);
    }
}

static void diff_flames(struct sbuf *b, const struct verdict *v, const struct curves *cv)
{
    for (size_t j = 0; j < v->nex; j++) {
        const struct verdict_explain *x = &v->ex[j];
        if (!x->profiles)
            continue;
        const struct verdict_point *p = &v->pts[x->point];
        const struct curve *a = &cv->c[p->ca], *c = &cv->c[p->cb];
        struct sbuf fa = {0}, fb = {0};
        folded_of(v, cv, a, p->threads, &fa);
        folded_of(v, cv, c, p->threads, &fb);
        char title[256];
        snprintf(title, sizeof title, "%s against %s, %s at %g threads on %d CPU%s",
                 cv->dirs[c->dir].name, cv->dirs[a->dir].name, c->variant, p->threads, c->cpus,
                 c->cpus == 1 ? "" : "s");
        sbuf_printf(b, "<details class=\"diff-flame\"><summary>Differential flame graph: ");
        page_esc(b, title);
        sbuf_printf(b, "</summary>\n");
        page_flame_diff(b, title, fa.s ? fa.s : "", fb.s ? fb.s : "", 0.002);
        sbuf_printf(b, "</details>\n");
        sbuf_free(&fa);
        sbuf_free(&fb);
    }
}

static void comparison(struct sbuf *b, const struct verdict *v, const struct curves *cv)
{
    sbuf_printf(b, "<p class=\"gate gate-%s\" id=\"gate\"><strong>%s</strong>: ",
                verdict_gate_name(v->gate), verdict_gate_name(v->gate));
    page_esc(b, v->gate_why);
    sbuf_printf(b, " (");
    for (size_t d = 1; d < cv->ndirs; d++) {
        page_esc(b, cv->dirs[d].name);
        sbuf_printf(b, "%s", d + 1 < cv->ndirs ? ", " : "");
    }
    sbuf_printf(b, " against ");
    page_esc(b, cv->dirs[0].name);
    sbuf_printf(b,
                ")</p>\n<p class=\"note\">Each shared point of each curve, for throughput, p95 "
                "latency and client and server CPU per transaction: the change as a ratio of "
                "the repeats' geometric means with its %.0f%% interval; a point is better or "
                "worse when its q-value (Benjamini-Hochberg over all %zu tests) is at most "
                "%.0f%% and the change at least %.0f%%, the same when the whole interval lies "
                "within &plusmn;%.0f%%, else undecided.</p>\n",
                100 * v->opt.conf, v->tested, 100 * v->opt.fdr, 100 * v->opt.delta,
                100 * v->opt.delta);
    class_list(b, v, cv, STATS_WORSE, "Worse");
    class_list(b, v, cv, STATS_BETTER, "Better");
    class_list(b, v, cv, STATS_INCONCLUSIVE, "Undecided");
    if (v->one_side) {
        sbuf_printf(b, "<p class=\"note\">");
        page_escf(b, "Measured on one side only: %zu point%s (%s); never read as no change.",
                  v->one_side, v->one_side == 1 ? "" : "s", v->one_side_eg);
        sbuf_printf(b, "</p>\n");
    }
    if (v->npairs)
        pairs_table(b, v, cv);
    grid(b, v, cv);
    diff_flames(b, v, cv);
}

static void limits(struct sbuf *b, const struct verdict *v, const struct curves *cv)
{
    if (!v->nlim)
        return;
    sbuf_printf(b, "<h3>Where each curve stops scaling, and why</h3>\n<ul class=\"limits\">\n");
    for (size_t i = 0; i < v->nlim; i++) {
        const struct limit *l = &v->lim[i];
        const struct curve *c = &cv->c[l->curve];
        char s[1024];
        limit_sentence(l, c, s, sizeof s);
        sbuf_printf(b, "<li class=\"limit\"><strong>");
        page_escf(b, "c%d %s", l->curve + 1, c->label);
        sbuf_printf(b, "</strong>: ");
        page_esc(b, s);
        sbuf_printf(b, "</li>\n");
    }
    sbuf_printf(b, "</ul>\n");
    for (size_t i = 0; i < v->nsc; i++) {
        const struct verdict_scaling *s = &v->sc[i];
        const struct curve *c = &cv->c[s->c], *base = &cv->c[s->base];
        struct sbuf t = {0};
        sbuf_printf(&t, "%s, %s on %d CPUs against %d: peak ", cv->dirs[c->dir].name, c->variant,
                    c->cpus, base->cpus);
        verdict_pct(&t, s->ratio.est);
        if (!isnan(s->ratio.lo)) {
            sbuf_printf(&t, " (");
            verdict_pct(&t, s->ratio.lo);
            sbuf_printf(&t, "..");
            verdict_pct(&t, s->ratio.hi);
            sbuf_printf(&t, ")");
        }
        sbuf_printf(&t, ", scaling efficiency %.0f%%", 100 * s->eff);
        if (!isnan(s->eff_lo))
            sbuf_printf(&t, " (%.0f..%.0f%%)", 100 * s->eff_lo, 100 * s->eff_hi);
        sbuf_printf(b, "<p class=\"scaling\">");
        page_esc(b, t.s);
        sbuf_printf(b, "</p>\n");
        sbuf_free(&t);
    }
}

void page_verdict(const struct curves *cv, const struct verdict *v, struct sbuf *b)
{
    if (!v || (!v->nlim && cv->ndirs < 2))
        return;
    sbuf_printf(b, "<h2 id=\"verdict\">Verdict</h2>\n");
    if (cv->ndirs > 1)
        comparison(b, v, cv);
    limits(b, v, cv);
}

void page_verdict_lead(const struct verdict *v, const struct curves *cv, size_t curve,
                       struct sbuf *s)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->nlim; i++) {
        const struct limit *l = &v->lim[i];
        if (l->curve != (int)curve)
            continue;
        const struct curve *c = &cv->c[curve];
        sbuf_printf(s, "; %s%s (%g -> %g threads)%s%s", limit_kind_name(l->kind),
                    l->where == LW_FALL   ? " after the peak"
                    : l->where == LW_KNEE ? " at the knee"
                                          : "",
                    c->n[l->ia], c->n[l->ib], l->part[0] ? ": " : "", l->part);
        return; /* the first: the knee where there is one */
    }
}
