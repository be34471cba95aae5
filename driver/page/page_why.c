/*
 * page_why.c - the "why" section: where the server's time went per
 * transaction at each point of each curve, and what grew at the knee.
 *
 * The one idea: a sentence is assembled from clauses, and a clause exists
 * only with its two figures ("lock waits grew 3.1x (120 -> 372 us)"), so
 * nothing on this part of the page is a claim without its numbers. The
 * figures are whypoint.c's medians; the kernel baseline beside them is
 * micro.csv's, matched to what grew only where the mapping is known (lock
 * waits: futexes and mutexes; the profile's kernel functions by name).
 *
 * Never computes statistics of its own and never appends a string from a
 * file but through page_esc().
 */
#include "page/page_why.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/evidence.h"
#include "page/page_html.h"
#include "page/page_prof.h"
#include "stats/stats.h"

/* ---- sentences ---- */

/* A figure as a person reads it: 98410, 881, 45.2, 3.07 */
static const char *num(char *buf, size_t len, double v)
{
    snprintf(buf, len, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
    return buf;
}

static void clause(struct sbuf *s, const char *what, double a, double b)
{
    char x[32], y[32];
    num(x, sizeof x, a), num(y, sizeof y, b);
    if (a <= 0 && b > 0)
        sbuf_printf(s, "%s appeared (0 -> %s us)", what, y);
    else if (b <= 0 && a > 0)
        sbuf_printf(s, "%s vanished (%s -> 0 us)", what, x);
    else if (fabs(b / a - 1) <= 0.05)
        sbuf_printf(s, "%s stayed within 5%% (%s -> %s us)", what, x, y);
    else if (b > a)
        sbuf_printf(s, "%s grew %.2gx (%s -> %s us)", what, b / a, x, y);
    else
        sbuf_printf(s, "%s fell %.0f%% (%s -> %s us)", what, 100 * (1 - b / a), x, y);
}

static int shown(double a, double b)
{
    /* not measured on a side (NAN), or under a microsecond both: nothing */
    return !isnan(a) && !isnan(b) && (a >= 1 || b >= 1);
}

void page_why_compare(const struct whypoint *a, const struct whypoint *b, struct sbuf *s)
{
    static const int order[] = {WP_USER, WP_KERNEL, WP_LOCK,   WP_IO,    WP_IRQ,
                                WP_IDLE, WP_ONCPU,  WP_CLIENT, WP_OTHER, WP_STEAL};
    int first = -1;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        int c = order[i];
        if (shown(a->cat[c], b->cat[c]) &&
            (first < 0 || b->cat[c] - a->cat[c] > b->cat[first] - a->cat[first]))
            first = c;
    }
    if (first < 0)
        return;
    sbuf_printf(s, "per transaction, ");
    clause(s, whypoint_cat[first], a->cat[first], b->cat[first]);
    /* the wait event that grew most (not on CPU, not the client) */
    const struct whypoint_ev *top = NULL;
    double grow = 0;
    for (int i = 0; i < b->nev; i++) {
        const struct whypoint_ev *e = &b->ev[i];
        double d = e->us - whypoint_event(a, e->event); /* NAN: never the top */
        if (strcmp(e->cls, "cpu") != 0 && strcmp(e->cls, "client") != 0 && d > grow && e->us >= 1)
            grow = d, top = e;
    }
    if (top) {
        sbuf_printf(s, "; the wait that grew most: ");
        clause(s, top->event, whypoint_event(a, top->event), top->us);
    }
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        int c = order[i];
        if (c == first || !shown(a->cat[c], b->cat[c]))
            continue;
        sbuf_printf(s, "; ");
        clause(s, whypoint_cat[c], a->cat[c], b->cat[c]);
    }
    sbuf_printf(s, ".");
}

/* ---- the section ---- */

static const struct whypoint *point(const struct whypoint *pts, size_t np, const struct curve *c,
                                    size_t t)
{
    return t < c->k ? whypoint_find(pts, np, c->variant, c->cpus, (int)c->n[t]) : NULL;
}

/* The table: a column per thread count, a row per category and per large event. */
static void table(struct sbuf *b, const struct curve *c, const struct whypoint *pts, size_t np)
{
    sbuf_printf(b, "<table class=\"why\">\n<tr><th class=\"curve\">us per transaction</th>");
    for (size_t t = 0; t < c->k; t++)
        sbuf_printf(b, "<th>%g thr</th>", c->n[t]);
    sbuf_printf(b, "</tr>\n");
    for (int cat = 0; cat < WP_N; cat++) {
        int any = 0;
        for (size_t t = 0; t < c->k; t++) {
            const struct whypoint *w = point(pts, np, c, t);
            any |= w && w->cat[cat] > 0;
        }
        if (!any)
            continue;
        sbuf_printf(b, "<tr><th class=\"curve\">%s</th>", whypoint_cat[cat]);
        for (size_t t = 0; t < c->k; t++) {
            const struct whypoint *w = point(pts, np, c, t);
            char v[32];
            if (!w || isnan(w->cat[cat]))
                sbuf_printf(b, "<td>-</td>");
            else
                sbuf_printf(b, "<td>%s</td>", num(v, sizeof v, w->cat[cat]));
        }
        sbuf_printf(b, "</tr>\n");
    }
    /* the events that are large somewhere: at most 6 */
    char evs[6][96];
    int ne = 0;
    for (size_t t = 0; t < c->k; t++) {
        const struct whypoint *w = point(pts, np, c, t);
        for (int i = 0; w && i < w->nev && i < 3; i++) {
            int have = 0;
            for (int j = 0; j < ne; j++)
                have |= !strcmp(evs[j], w->ev[i].event);
            if (!have && ne < 6 && w->ev[i].us >= 1)
                snprintf(evs[ne++], sizeof evs[0], "%s", w->ev[i].event);
        }
    }
    for (int j = 0; j < ne; j++) {
        sbuf_printf(b, "<tr><th class=\"curve\"><small>wait</small> ");
        page_esc(b, evs[j]);
        sbuf_printf(b, "</th>");
        for (size_t t = 0; t < c->k; t++) {
            const struct whypoint *w = point(pts, np, c, t);
            char v[32];
            double us = w ? whypoint_event(w, evs[j]) : NAN;
            sbuf_printf(b, "<td>%s</td>", isnan(us) ? "-" : num(v, sizeof v, us));
        }
        sbuf_printf(b, "</tr>\n");
    }
    static const char *const sched[] = {"voluntary switches/txn", "involuntary switches/txn",
                                        "migrations/txn", "run-queue wait us/txn"};
    for (int k = 0; k < 4; k++) {
        int any = 0;
        for (size_t t = 0; t < c->k; t++) {
            const struct whypoint *w = point(pts, np, c, t);
            any |= w && !isnan(w->voluntary_txn);
        }
        if (!any)
            continue;
        sbuf_printf(b, "<tr><th class=\"curve\">%s</th>", sched[k]);
        for (size_t t = 0; t < c->k; t++) {
            const struct whypoint *w = point(pts, np, c, t);
            double v = !w       ? NAN
                       : k == 0 ? w->voluntary_txn
                       : k == 1 ? w->involuntary_txn
                       : k == 2 ? w->migrations_txn
                                : w->runq_us_txn;
            char x[32];
            sbuf_printf(b, "<td>%s</td>", isnan(v) ? "-" : num(x, sizeof x, v));
        }
        sbuf_printf(b, "</tr>\n");
    }
    sbuf_printf(b, "</table>\n");
}

/* micro.csv's series of test at cpus: its speedup at its most tasks. */
static void baseline_line(struct sbuf *b, const struct curves *cv, int cpus, char (*tests)[32],
                          int nt)
{
    struct sbuf l = {0};
    for (int i = 0; i < nt; i++)
        for (size_t m = 0; m < cv->nmc; m++) {
            const struct curve_kernel *mc = &cv->mc[m];
            if (!evidence_series_is(mc, tests[i], cpus))
                continue;
            sbuf_printf(&l, "%s%s (%s) %.2fx at %g tasks", l.len ? "; " : "", mc->test, mc->what,
                        stats_speedup(mc->n, mc->x, mc->k - 1), mc->n[mc->k - 1]);
        }
    if (l.len) {
        sbuf_printf(b, "<p class=\"note why-baseline\">");
        page_escf(b,
                  "The kernel baseline's tests of those paths on %d CPU%s (speedup over 1 task; "
                  "linear would equal the tasks): %s.",
                  cpus, cpus == 1 ? "" : "s", l.s);
        sbuf_printf(b, "</p>\n");
    } else if (nt) {
        sbuf_printf(b, "<p class=\"note\">");
        page_escf(b, "No kernel baseline of those paths (%s%s) in this run: --baseline=%s runs it.",
                  tests[0], nt > 1 ? ", ..." : "", tests[0]);
        sbuf_printf(b, "</p>\n");
    }
    sbuf_free(&l);
}

static void profiles(struct sbuf *b, const struct curves *cv, size_t ci, const struct whycsv *w,
                     const char *dir, size_t ia, size_t ib, char (*kfn)[128], int *nk)
{
    const struct curve *c = &cv->c[ci];
    struct prof_point *pp;
    size_t n = prof_points(w, dir, c->variant, c->cpus, &pp);
    *nk = 0;
    if (!n) {
        prof_points_free(pp, n);
        return;
    }
    const struct prof_point *a = prof_find(pp, n, (int)c->n[ia]),
                            *bp = prof_find(pp, n, (int)c->n[ib]);
    const struct prof_point *top = bp ? bp : &pp[n - 1];
    sbuf_printf(b, "<h4>Profile (perf, cpu-clock)</h4>\n");
    page_prof_top(b, top, 15);
    if (a && bp && a != bp) {
        char cap[160];
        snprintf(cap, sizeof cap, "From %d to %d threads on %d CPU%s", a->threads, bp->threads,
                 c->cpus, c->cpus == 1 ? "" : "s");
        page_prof_diff(b, cap, a, bp, 10);
        *nk = prof_grown_kernel(a, bp, kfn, 8);
    }
    /* fewest against most CPUs at the same threads */
    if (c->base >= 0 && cv->c[c->base].cpus < c->cpus && bp) {
        const struct curve *bc = &cv->c[c->base];
        struct prof_point *qp;
        size_t nq = prof_points(w, dir, bc->variant, bc->cpus, &qp);
        const struct prof_point *q = prof_find(qp, nq, bp->threads);
        if (q) {
            char cap[160];
            snprintf(cap, sizeof cap, "At %d threads, from %d to %d CPUs", bp->threads, bc->cpus,
                     c->cpus);
            page_prof_diff(b, cap, q, bp, 10);
            if (!*nk)
                *nk = prof_grown_kernel(q, bp, kfn, 8);
        }
        prof_points_free(qp, nq);
    }
    page_prof_flames(b, pp, n);
    prof_points_free(pp, n);
}

static void curve(struct sbuf *b, const struct curves *cv, size_t ci, const struct whycsv *w,
                  const struct whypoint *pts, size_t np, const char *dir)
{
    const struct curve *c = &cv->c[ci];
    int any = 0;
    for (size_t t = 0; t < c->k; t++)
        any |= point(pts, np, c, t) != NULL;
    int profiled = 0;
    for (size_t i = 0; i < w->nprof; i++)
        profiled |= w->prof[i].k.cpus == c->cpus && !strcmp(w->prof[i].k.variant, c->variant);
    if (!any && !profiled)
        return;
    sbuf_printf(b, "<h3>");
    page_escf(b, "c%zu %s", ci + 1, c->label);
    sbuf_printf(b, "</h3>\n");
    size_t ia = 0, ib = c->k ? c->k - 1 : 0;
    int knee = c->knee < c->k && c->knee >= 1;
    if (knee)
        ia = c->knee - 1, ib = c->knee;
    const struct whypoint *a = point(pts, np, c, ia), *bw = point(pts, np, c, ib);
    struct sbuf s = {0};
    if (a && bw && ia != ib) {
        sbuf_printf(&s, "From %g to %g threads on %d CPU%s (%s; %.0f -> %.0f tps), ", c->n[ia],
                    c->n[ib], c->cpus, c->cpus == 1 ? "" : "s",
                    knee ? "the knee" : "no knee: first and last points", c->x[ia], c->x[ib]);
        size_t l0 = s.len;
        page_why_compare(a, bw, &s);
        if (s.len == l0)
            s.len = 0;
    }
    struct sbuf s2 = {0};
    const struct curve *bc = c->base >= 0 ? &cv->c[c->base] : NULL;
    if (bw && bc && bc->cpus < c->cpus) {
        size_t t = 0;
        while (t < bc->k && bc->n[t] != c->n[ib])
            t++;
        const struct whypoint *q = point(pts, np, bc, t);
        if (q) {
            sbuf_printf(&s2, "At %g threads, from %d to %d CPUs (%.0f -> %.0f tps), ", c->n[ib],
                        bc->cpus, c->cpus, bc->x[t], c->x[ib]);
            size_t l0 = s2.len;
            page_why_compare(q, bw, &s2);
            if (s2.len == l0)
                s2.len = 0;
        }
    }
    if (s.len || s2.len) {
        sbuf_printf(b,
                    "<p class=\"why\" id=\"why-c%zu\" style=\"background:#f4f9f4;border-left:5px "
                    "solid #2ca02c;padding:.4em .8em\">",
                    ci + 1);
        if (s.len)
            page_esc(b, s.s);
        if (s.len && s2.len)
            sbuf_printf(b, "<br>");
        if (s2.len)
            page_esc(b, s2.s);
        sbuf_printf(b, "</p>\n");
    }
    sbuf_free(&s);
    sbuf_free(&s2);
    if (any)
        table(b, c, pts, np);
    char kfn[8][128];
    int nk = 0;
    if (profiled)
        profiles(b, cv, ci, w, dir, ia, ib, kfn, &nk);
    if (a && bw) {
        char tests[32][32];
        int nt = evidence_kernel_tests(a, bw, kfn, nk, tests, 32);
        baseline_line(b, cv, c->cpus, tests, nt);
    }
}

/* What the collectors could not read (meta.json's why.notes). */
static void notes(struct sbuf *b, const struct curves_dir *d)
{
    json_t *why = d->meta ? json_object_get(d->meta, "why") : NULL;
    json_t *ns = why ? json_object_get(why, "notes") : NULL;
    const char *m = why ? json_string_value(json_object_get(why, "waits")) : NULL;
    sbuf_printf(b, "<p class=\"note\">");
    page_escf(b, "%s: wait events from %s.", d->name, m ? m : "(not recorded)");
    sbuf_printf(b, "</p>\n");
    if (!json_is_array(ns) || !json_array_size(ns))
        return;
    sbuf_printf(b, "<ul class=\"warn\">\n");
    size_t i;
    json_t *v;
    json_array_foreach(ns, i, v)
    {
        if (!json_is_string(v))
            continue;
        sbuf_printf(b, "<li>");
        page_esc(b, json_string_value(v));
        sbuf_printf(b, "</li>\n");
    }
    sbuf_printf(b, "</ul>\n");
}

void page_why(const struct curves *cv, const struct evidence *ev, struct sbuf *b)
{
    int head = 0;
    for (size_t d = 0; ev && d < cv->ndirs && d < ev->n; d++) {
        const struct whycsv *w = &ev->d[d].w;
        if (!w->ncpu && !w->nwait && !w->nsched && !w->nprof)
            continue;
        if (!head) {
            sbuf_printf(b, "<h2 id=\"why\">Why</h2>\n<p class=\"note\">Where the server's time "
                           "went, per transaction, over each level's window (medians over "
                           "repeats). CPU rows are the held CPUs' time (/proc/stat: whoever ran "
                           "there); wait rows are the connections' time summed over connections, "
                           "so the two do not add up. The sentences compare the points before "
                           "and at the knee, and the fewest against the most CPUs at the same "
                           "threads.</p>\n");
            head = 1;
        }
        notes(b, &cv->dirs[d]);
        for (size_t i = 0; i < cv->nc; i++)
            if (cv->c[i].dir == (int)d)
                curve(b, cv, i, w, ev->d[d].pts, ev->d[d].np, cv->dirs[d].path);
    }
}
