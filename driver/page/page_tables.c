/*
 * page_tables.c - the tables of the page (the study section is page_study.c).
 *
 * The one idea: a table is curves down, thread counts across (the union of
 * every curve's thread counts, so columns line up and a missing level is a
 * "-"), and every cell is a figure curves.c computed into struct curve;
 * relative % goes through stats_relpct() as compare does.
 *
 * Never compute statistics here; never let a string from a file reach the
 * page but through page_esc().
 */
#include "page/page_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page/page_headline.h"
#include "page/page_html.h"
#include "stats/stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The sorted union of the curves' thread counts. */
static size_t thread_columns(const struct curves *cv, double *col, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < cv->nc; i++)
        for (size_t t = 0; t < cv->c[i].k; t++) {
            int seen = 0;
            for (size_t j = 0; j < n && !seen; j++)
                seen = col[j] == cv->c[i].n[t];
            if (!seen && n < max)
                col[n++] = cv->c[i].n[t];
        }
    qsort(col, n, sizeof *col, cmp_double);
    return n;
}

static int point_at(const struct curve *c, double threads)
{
    for (size_t t = 0; t < c->k; t++)
        if (c->n[t] == threads)
            return (int)t;
    return -1;
}

static void head(struct sbuf *b, const char *first, const double *col, size_t ncol)
{
    sbuf_printf(b, "<table>\n<tr><th>%s</th>", first);
    for (size_t j = 0; j < ncol; j++)
        sbuf_printf(b, "<th>%g</th>", col[j]);
    sbuf_printf(b, "</tr>\n");
}

static void curve_cell(struct sbuf *b, const struct curves *cv, size_t i)
{
    sbuf_printf(b, "<tr><th class=\"curve\">c%zu ", i + 1);
    page_esc(b, cv->c[i].label);
    sbuf_printf(b, "</th>");
}

/* One row per curve; cell(c, t, buf) formats point t, or the cell is "-". */
typedef void (*cell_fn)(const struct curve *c, size_t t, char *buf, size_t len);

static void table(const struct curves *cv, struct sbuf *b, const char *first, cell_fn cell)
{
    double col[CURVE_MAXPTS];
    size_t ncol = thread_columns(cv, col, CURVE_MAXPTS);
    head(b, first, col, ncol);
    for (size_t i = 0; i < cv->nc; i++) {
        curve_cell(b, cv, i);
        for (size_t j = 0; j < ncol; j++) {
            int t = point_at(&cv->c[i], col[j]);
            char buf[160] = "-";
            if (t >= 0)
                cell(&cv->c[i], (size_t)t, buf, sizeof buf);
            sbuf_printf(b, "<td>%s</td>", buf); /* numbers only: formatted here */
        }
        sbuf_printf(b, "</tr>\n");
    }
    sbuf_printf(b, "</table>\n");
}

static void cell_tps(const struct curve *c, size_t t, char *buf, size_t len)
{
    const struct stats_summary *s = &c->tp[t];
    if (s->n < 2)
        snprintf(buf, len, "%.1f<br><small>n=1</small>", s->median);
    else
        snprintf(buf, len, "%.1f<br><small>%.1f&ndash;%.1f, sd %.1f%%, n=%zu</small>", s->median,
                 s->min, s->max, s->mean > 0 ? 100 * s->sd / s->mean : 0, s->n);
}

static void cell_speedup(const struct curve *c, size_t t, char *buf, size_t len)
{
    if (isnan(c->cpu_speedup[t]))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2fx<br><small>%.0f%% of %d CPUs</small>", c->cpu_speedup[t],
                 100 * c->cpu_eff[t], c->cpus);
}

static void cell_latency(const struct curve *c, size_t t, char *buf, size_t len)
{
    if (isnan(c->p95[t])) /* results.h: not measured, never 0 */
        snprintf(buf, len, "not measured");
    else
        snprintf(buf, len, "%.3f<br><small>p50 %.3f, p99 %.3f</small>", c->p95[t], c->p50[t],
                 c->p99[t]);
}

void page_table_tps(const struct curves *cv, struct sbuf *b)
{
    table(cv, b, "median TPS (min&ndash;max, sd) by threads", cell_tps);
}

void page_table_speedup(const struct curves *cv, struct sbuf *b)
{
    table(cv, b, "speedup over the fewest CPUs by threads", cell_speedup);
}

void page_table_latency(const struct curves *cv, struct sbuf *b)
{
    table(cv, b, "p95 latency ms by threads", cell_latency);
}

void page_table_usl(const struct curves *cv, struct sbuf *b)
{
    sbuf_printf(b, "<table>\n<tr><th>curve</th><th>&sigma;</th><th>&kappa;</th><th>&lambda; "
                   "tps/thread</th><th>R&sup2;</th><th>N*</th><th>peak</th><th>knee</th></tr>\n");
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
        curve_cell(b, cv, i);
        if (c->fit_ok) {
            sbuf_printf(b, "<td>%.4f</td><td>%.5f</td><td>%.1f</td><td>%.3f</td>", c->usl.sigma,
                        c->usl.kappa, c->usl.lambda, c->usl.r2);
            if (isinf(c->usl.nstar))
                sbuf_printf(b, "<td>&infin;</td>");
            else
                sbuf_printf(b, "<td>%.1f</td>", c->usl.nstar);
        } else {
            sbuf_printf(b, "<td colspan=\"5\">no fit: ");
            page_esc(b, c->nofit);
            sbuf_printf(b, "</td>");
        }
        if (c->k)
            sbuf_printf(b, "<td>%.0f tps @ %g</td>", c->x[c->peak], c->n[c->peak]);
        else
            sbuf_printf(b, "<td>-</td>");
        if (c->knee < c->k)
            sbuf_printf(b, "<td>%g</td></tr>\n", c->n[c->knee]);
        else
            sbuf_printf(b, "<td>none</td></tr>\n");
    }
    sbuf_printf(b, "</table>\n");
}

/* The repeats of curve c at threads: its rows' tps, into v (at most max). */
static size_t repeats(const struct curves *cv, const struct curve *c, double threads, double *v,
                      size_t max)
{
    const struct result_set *rs = &cv->dirs[c->dir].rs;
    size_t n = 0;
    for (size_t i = 0; i < rs->n && n < max; i++) {
        const struct result_row *r = &rs->rows[i];
        if (r->threads == threads && r->cpus == c->cpus && !strcmp(r->engine, c->engine) &&
            !strcmp(r->workload, c->workload) && !strcmp(r->variant, c->variant))
            v[n++] = r->tps;
    }
    return n;
}

/* compare's marks: * significant (Welch, 95%), ~ no difference proven,
 * nothing with fewer than two repeats a side. */
static const char *welch_mark(const struct curves *cv, const struct curve *a, const struct curve *b,
                              double threads)
{
    double va[256], vb[256];
    size_t na = repeats(cv, a, threads, va, 256), nb = repeats(cv, b, threads, vb, 256);
    struct stats_welch w;
    if (stats_welch(va, na, vb, nb, &w) < 0)
        return "";
    return w.significant ? "*" : "~";
}

void page_table_relative(const struct curves *cv, struct sbuf *b)
{
    double col[CURVE_MAXPTS];
    size_t ncol = thread_columns(cv, col, CURVE_MAXPTS), rows = 0;
    for (size_t i = 0; i < cv->nc; i++) {
        int m = curves_match(cv, i);
        if (m < 0)
            continue;
        if (!rows++)
            head(b, "relative % of median TPS against the first directory", col, ncol);
        curve_cell(b, cv, i);
        for (size_t j = 0; j < ncol; j++) {
            int t = point_at(&cv->c[i], col[j]), u = point_at(&cv->c[m], col[j]);
            long long rel;
            if (t >= 0 && u >= 0 && stats_relpct(cv->c[i].x[t], cv->c[m].x[u], &rel) == 0)
                sbuf_printf(b, "<td class=\"%s\">%+lld%%%s</td>", rel < 0 ? "neg" : "pos", rel,
                            welch_mark(cv, &cv->c[i], &cv->c[m], col[j]));
            else
                sbuf_printf(b, "<td>-</td>");
        }
        sbuf_printf(b, "</tr>\n");
    }
    if (rows)
        sbuf_printf(b, "</table>\n<p class=\"note\">Each curve against the curve of the first "
                       "directory with the same workload, variant and CPU count: "
                       "floor((later / first - 1) &times; 100), as <code>dbscale "
                       "compare</code> computes it; * the difference is significant "
                       "(Welch's t-test over the repeats, 95%%), ~ no difference proven, no "
                       "mark: fewer than two repeats a side.</p>\n");
    else
        sbuf_printf(b, "<p class=\"note\">No curve of a later directory has the same workload, "
                       "variant and CPU count as one of the first.</p>\n");
}
