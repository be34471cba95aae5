/*
 * page.c - the layout of the report page: the answer in words first, then
 * the warnings, the graphs, the tables, the kernel baseline and the study.
 * One file, inline CSS and SVG, no script and nothing fetched, so it reads
 * the same mailed, attached to a bug report or opened years later.
 *
 * The one idea: the page shows what page_load() computed and nothing else;
 * the sentences (page_headline.c), the warnings (page_warn.c), the tables
 * (page_tables.c) and the charts (page_svg.c) all read the same struct curves,
 * so a number on the page is the number in summary.csv.
 *
 * Never compute statistics here, never print or exit (the verb does), and
 * never append a string from a file but through page_esc().
 */
#include "page/page.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "page/page_headline.h"
#include "page/page_verdict.h"
#include "page/page_kernels.h"
#include "page/page_html.h"
#include "page/page_svg.h"
#include "page/page_study.h"
#include "page/page_tables.h"
#include "page/page_warn.h"
#include "page/page_why.h"
#include "stats/stats.h"

static const char css[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;"
    "background:#fff;max-width:1100px;margin:0 auto;padding:16px 24px}"
    "h1{font-size:1.6em;margin:.2em 0}h2{margin-top:1.6em;border-bottom:1px solid #ddd}"
    ".sub{color:#555;margin-top:0}"
    ".lead{font-size:1.25em;font-weight:600;background:#eef5ff;border-left:5px solid #1f77b4;"
    "padding:.5em .8em}"
    ".warn li{color:#7a3e00}.warn{background:#fff7e6;border:1px solid #f0c36d;padding:.3em 1em}"
    /* one chart a row, at most 1000 px: its text is 15-18 of 900 units,
     * 13 px or more on a screen or a printed page */
    ".charts{display:block}figure{margin:0 0 14px;max-width:1000px;break-inside:avoid}"
    "svg.chart{width:100%;height:auto;background:#fff;border:1px solid #e4e4e4}"
    "svg .grid{stroke:#eee;stroke-width:1}svg .frame{fill:none;stroke:#888}"
    "svg .line{fill:none;stroke-width:2.2}svg .dash{stroke-dasharray:7 5}"
    "svg .ideal{stroke-width:1.4;stroke-dasharray:2 4}"
    "svg .bar{stroke-width:1.4;fill:none}svg text{font:15px sans-serif;fill:#222}"
    "svg .title{font-size:18px;font-weight:600}svg .axis{font-size:16px}"
    "@media print{body{max-width:none;padding:0}figure{max-width:100%}}"
    "table{border-collapse:collapse;margin:.6em 0;font-size:.92em}"
    "th,td{border:1px solid #ddd;padding:3px 8px;text-align:right;vertical-align:top}"
    "th.curve,.kv th{text-align:left;font-weight:normal}.kv td{text-align:left}"
    "td small{color:#666}td.neg{color:#b00}td.pos{color:#060}"
    "pre.cmd{background:#f6f6f6;padding:.6em;white-space:pre-wrap;word-break:break-all}"
    ".note{color:#555;font-size:.9em}"
    ".gate{font-size:1.1em;padding:.4em .8em;border-left:5px solid #999;background:#f4f4f4}"
    ".gate-regression{background:#fdecea;border-color:#b00}.gate-pass{background:#eaf7ea;"
    "border-color:#2a2}.gate-inconclusive,.gate-incomparable{background:#fff7e6;"
    "border-color:#e0a000}li.worse{color:#900}li.better{color:#060}"
    "details{margin:.5em 0}summary{cursor:pointer;color:#1f4f7f}";

/* The lead sentence: the curve of the first directory with the most CPUs
 * that has a fewer-CPUs curve to compare with; else the first curve. */
static size_t lead_curve(const struct curves *cv)
{
    size_t best = 0;
    int found = 0;
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
        if (c->dir != 0 || c->base < 0 || cv->c[c->base].cpus >= c->cpus)
            continue;
        if (!found || c->cpus > cv->c[best].cpus)
            best = i, found = 1;
    }
    return best;
}

static void answer(const struct curves *cv, const struct verdict *v, struct sbuf *b)
{
    char s[768];
    if (cv->nc == 0) {
        sbuf_printf(b, "<p class=\"lead\">No curves: the results hold no rows.</p>\n");
        return;
    }
    size_t lead = lead_curve(cv);
    page_headline(cv, lead, s, sizeof s);
    struct sbuf l = {0};
    sbuf_printf(&l, "%s", s);
    page_verdict_lead(v, cv, lead, &l); /* the headline carries the verdict */
    if (v && cv->ndirs > 1)
        sbuf_printf(&l, ". Against %s: %s (%s)", cv->dirs[0].name, verdict_gate_name(v->gate),
                    v->gate_why);
    sbuf_printf(b, "<p class=\"lead\" id=\"headline\">");
    page_esc(b, l.s);
    sbuf_free(&l);
    sbuf_printf(b, "</p>\n");
    page_verdict(cv, v, b);
    sbuf_printf(b, "<h2>Curves</h2>\n<ul class=\"headlines\">\n");
    for (size_t i = 0; i < cv->nc; i++) {
        page_headline(cv, i, s, sizeof s);
        sbuf_printf(b, "<li>");
        page_esc(b, s);
        sbuf_printf(b, "</li>\n");
    }
    for (size_t i = 0; i < cv->nc; i++) {
        page_compare_sentence(cv, i, s, sizeof s);
        if (!s[0])
            continue;
        sbuf_printf(b, "<li class=\"cmp\">");
        page_esc(b, s);
        sbuf_printf(b, "</li>\n");
    }
    sbuf_printf(b, "</ul>\n");
}

static void warnings(const struct curves *cv, struct sbuf *b)
{
    struct sbuf w = {0};
    size_t n = page_warnings(cv, &w);
    sbuf_printf(b, "<h2>Warnings</h2>\n");
    if (!n) {
        sbuf_printf(b, "<p>None: every point has a narrow spread, no point beats its ideal, "
                       "and client and server had CPUs of their own.</p>\n");
    } else {
        sbuf_printf(b, "<ul class=\"warn\">\n");
        for (char *l = w.s, *e; l && *l; l = e + 1) {
            e = strchr(l, '\n');
            if (!e)
                break;
            *e = '\0';
            sbuf_printf(b, "<li>");
            page_esc(b, l);
            sbuf_printf(b, "</li>\n");
        }
        sbuf_printf(b, "</ul>\n");
    }
    sbuf_free(&w);
}

static int wide_threads(const struct curves *cv)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < cv->nc; i++)
        for (size_t t = 0; t < cv->c[i].k; t++)
            lo = fmin(lo, cv->c[i].n[t]), hi = fmax(hi, cv->c[i].n[t]);
    return lo > 0 && hi / lo >= 8;
}

/* A series per curve: throughput (with min/max bars and its ideal, as the
 * gnuplot graph has them) or p95 latency. */
static struct page_series *curve_series(const struct curves *cv, int bars, int latency)
{
    struct page_series *s = xcalloc(cv->nc + 1, sizeof *s);
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
        snprintf(s[i].label, sizeof s[i].label, "c%zu %s", i + 1, c->label);
        s[i].k = c->k < PAGE_SVG_MAXPTS ? c->k : PAGE_SVG_MAXPTS;
        s[i].bars = bars;
        s[i].has_ideal = !latency && c->cpus > 0;
        for (size_t t = 0; t < s[i].k; t++) {
            s[i].x[t] = c->n[t];
            s[i].y[t] = latency ? c->p95[t] : c->x[t];
            s[i].lo[t] = c->tp[t].min, s[i].hi[t] = c->tp[t].max;
            if (s[i].has_ideal)
                s[i].ideal[t] = stats_ideal(c->n, c->x, t, c->cpus);
        }
    }
    return s;
}

/* TPS against the server's CPU count: a line per (directory, engine,
 * workload, thread count) through the curves that differ only in CPUs,
 * with min/max bars; only lines (two CPU counts or more); the ideal,
 * linear from the fewest CPUs, on the line that reaches the most at its
 * most CPUs among those of its results and workload (the gnuplot graph's
 * choice: an ideal on every line would hide the data). */
static size_t cpu_series(const struct curves *cv, struct page_series *s, size_t max)
{
    size_t ns = 0;
    int *group = xcalloc(max + 1, sizeof *group); /* the first curve of its group */
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
        int g = (int)i;
        for (size_t j = 0; j < i; j++)
            if (cv->c[j].dir == c->dir && !strcmp(cv->c[j].engine, c->engine) &&
                !strcmp(cv->c[j].workload, c->workload)) {
                g = (int)j;
                break;
            }
        for (size_t t = 0; t < c->k; t++) {
            char label[256];
            snprintf(label, sizeof label, "%s%s%s %s, %g thread%s",
                     cv->ndirs > 1 ? cv->dirs[c->dir].name : "", cv->ndirs > 1 ? ": " : "",
                     cv->dirs[c->dir].server[0] ? cv->dirs[c->dir].server : c->engine, c->workload,
                     c->n[t], c->n[t] == 1 ? "" : "s");
            struct page_series *o = NULL;
            for (size_t j = 0; j < ns && !o; j++)
                if (!strcmp(s[j].label, label))
                    o = &s[j];
            if (!o && ns == max)
                continue;
            if (!o) {
                group[ns] = g;
                o = &s[ns++];
                memset(o, 0, sizeof *o);
                snprintf(o->label, sizeof o->label, "%s", label);
                o->bars = 1;
            }
            if (o->k < PAGE_SVG_MAXPTS) {
                /* insert by CPU count; a second variant at the same count is left out */
                size_t at = o->k;
                int dup = 0;
                for (size_t u = 0; u < o->k; u++)
                    dup |= o->x[u] == c->cpus;
                if (dup)
                    continue;
                while (at > 0 && o->x[at - 1] > c->cpus) {
                    o->x[at] = o->x[at - 1], o->y[at] = o->y[at - 1];
                    o->lo[at] = o->lo[at - 1], o->hi[at] = o->hi[at - 1];
                    at--;
                }
                o->x[at] = c->cpus, o->y[at] = c->x[t];
                o->lo[at] = c->tp[t].min, o->hi[at] = c->tp[t].max;
                o->k++;
            }
        }
    }
    /* A line needs two CPU counts: a series at one (a study run at one
     * count) would be a lone dot read as a point of the others. */
    size_t keep = 0;
    for (size_t i = 0; i < ns; i++)
        if (s[i].k >= 2) {
            group[keep] = group[i];
            s[keep++] = s[i];
        }
    for (size_t i = 0; i < keep; i++) {
        int best = s[i].x[0] > 0;
        for (size_t j = 0; j < keep && best; j++)
            best = j == i || group[j] != group[i] || s[j].y[s[j].k - 1] <= s[i].y[s[i].k - 1];
        s[i].has_ideal = best;
        for (size_t u = 0; u < s[i].k && best; u++)
            s[i].ideal[u] = s[i].y[0] * s[i].x[u] / s[i].x[0];
    }
    free(group);
    return keep;
}

static void chart(struct sbuf *b, const char *title, const char *xl, const char *yl, int logx,
                  struct page_series *s, size_t ns, const char *ideal)
{
    struct page_chart c = {title, xl, yl, logx, s, ns, ideal};
    sbuf_printf(b, "<figure>");
    page_svg_chart(b, &c);
    sbuf_printf(b, "</figure>\n");
}

/* The kernel baseline beside the database: both as speedup over their first
 * point (stats_speedup), against tasks or threads, at the most CPUs. */
/* One chart of the kernel baseline at cpus CPUs: the database curves held
 * to as many CPUs, and the kernel series run on as many (dashed). */
static void baseline_chart(const struct curves *cv, struct sbuf *b, int cpus)
{
    struct page_series *s = xcalloc(cv->nmc + cv->nc + 1, sizeof *s);
    size_t ns = 0;
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
        if (c->cpus != cpus || !c->k)
            continue;
        snprintf(s[ns].label, sizeof s[ns].label, "c%zu %s", i + 1, c->label);
        for (size_t t = 0; t < c->k && t < PAGE_SVG_MAXPTS; t++)
            s[ns].x[t] = c->n[t], s[ns].y[t] = stats_speedup(c->n, c->x, t);
        s[ns++].k = c->k < PAGE_SVG_MAXPTS ? c->k : PAGE_SVG_MAXPTS;
    }
    for (size_t m = 0; m < cv->nmc; m++) {
        const struct curve_kernel *mc = &cv->mc[m];
        if (mc->cpus != cpus)
            continue;
        snprintf(s[ns].label, sizeof s[ns].label, "%s", mc->label);
        s[ns].dashed = 1;
        for (size_t t = 0; t < mc->k && t < PAGE_SVG_MAXPTS; t++)
            s[ns].x[t] = mc->n[t], s[ns].y[t] = stats_speedup(mc->n, mc->x, t);
        s[ns++].k = mc->k < PAGE_SVG_MAXPTS ? mc->k : PAGE_SVG_MAXPTS;
    }
    char title[96];
    if (cpus > 0)
        snprintf(title, sizeof title, "Speedup on %d CPU%s: database and kernel baseline", cpus,
                 cpus == 1 ? "" : "s");
    else
        snprintf(title, sizeof title, "Speedup: kernel baseline (CPU count not recorded)");
    chart(b, title, "threads or tasks", "speedup over the first point", 1, s, ns, NULL);
    free(s);
}

/* The kernel baseline beside the database: both as speedup over their first
 * point (stats_speedup), against tasks or threads, a chart per CPU count the
 * kernel tests ran at. */
static void baseline(const struct curves *cv, struct sbuf *b)
{
    if (!cv->nmc)
        return;
    sbuf_printf(b, "<h2>Kernel baseline</h2>\n<p class=\"note\">The syscall microbenchmarks of "
                   "micro.csv (dashed) beside the database curves at the same CPU count, each as "
                   "speedup over its first point, linear up to it: if the kernel scales and "
                   "the database does not, the limit is in the server.</p>\n<div "
                   "class=\"charts\">");
    for (size_t m = 0; m < cv->nmc; m++) {
        int seen = 0;
        for (size_t j = 0; j < m && !seen; j++)
            seen = cv->mc[j].cpus == cv->mc[m].cpus;
        if (!seen)
            baseline_chart(cv, b, cv->mc[m].cpus);
    }
    /* The table: a row per kernel test, a column per task count. */
    double tasks[CURVE_MAXPTS];
    size_t nt = 0;
    for (size_t m = 0; m < cv->nmc; m++)
        for (size_t t = 0; t < cv->mc[m].k; t++) {
            size_t j = 0;
            while (j < nt && tasks[j] != cv->mc[m].n[t])
                j++;
            if (j == nt && nt < CURVE_MAXPTS) {
                while (j > 0 && tasks[j - 1] > cv->mc[m].n[t]) /* keep sorted */
                    tasks[j] = tasks[j - 1], j--;
                tasks[j] = cv->mc[m].n[t], nt++;
            }
        }
    sbuf_printf(b, "</div>\n<table>\n<tr><th>kernel test: median ops/s (speedup) by tasks</th>");
    for (size_t j = 0; j < nt; j++)
        sbuf_printf(b, "<th>%g</th>", tasks[j]);
    sbuf_printf(b, "</tr>\n");
    for (size_t m = 0; m < cv->nmc; m++) {
        const struct curve_kernel *mc = &cv->mc[m];
        sbuf_printf(b, "<tr><th class=\"curve\">");
        page_esc(b, mc->label);
        sbuf_printf(b, "</th>");
        for (size_t j = 0; j < nt; j++) {
            size_t t = 0;
            while (t < mc->k && mc->n[t] != tasks[j])
                t++;
            if (t == mc->k)
                sbuf_printf(b, "<td>-</td>");
            else
                sbuf_printf(b, "<td>%.0f<br><small>%.2fx</small></td>", mc->x[t],
                            stats_speedup(mc->n, mc->x, t));
        }
        sbuf_printf(b, "</tr>\n");
    }
    sbuf_printf(b, "</table>\n");
}

static void graphs(const struct curves *cv, struct sbuf *b)
{
    int logx = wide_threads(cv);
    sbuf_printf(b, "<h2>Graphs</h2>\n");
    char wls[256];
    if (curves_workloads(cv, wls, sizeof wls) > 1) {
        sbuf_printf(b, "<p class=\"warn\">Curves of different workloads (");
        page_esc(b, wls);
        sbuf_printf(b, ") share these graphs: compare each only with curves of its own "
                       "workload.</p>\n");
    }
    sbuf_printf(b, "<div class=\"charts\">\n");
    struct page_series *s = curve_series(cv, 1, 0);
    chart(b, "Throughput against client threads", "client threads", "transactions/s (median)", logx,
          s, cv->nc,
          "ideal (dotted, each curve's colour): linear up to the server's CPUs, flat after");
    free(s);
    size_t max = 64;
    s = xcalloc(max, sizeof *s);
    size_t ns = cpu_series(cv, s, max);
    /* A study at one CPU count has no CPU axis: say so, draw no dots. */
    if (ns)
        chart(b, "Throughput against server CPUs", "CPUs the server was held to",
              "transactions/s (median)", 0, s, ns, "ideal (dotted): linear from the fewest CPUs");
    free(s);
    s = curve_series(cv, 0, 1);
    chart(b, "p95 latency against client threads", "client threads", "p95 latency ms (median)",
          logx, s, cv->nc, NULL);
    free(s);
    sbuf_printf(b,
                "</div>\n<p class=\"note\">Points are medians over repeats; bars span the "
                "lowest to the highest repeat.%s</p>\n",
                ns ? "" : " Every curve ran at one CPU count, so there is no graph against CPUs.");
}

void page_render(const struct curves *cv, const struct verdict *v, struct sbuf *b)
{
    sbuf_printf(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<title>dbscale report: ");
    for (size_t d = 0; d < cv->ndirs; d++) {
        sbuf_printf(b, "%s", d ? ", " : "");
        page_esc(b, cv->dirs[d].name);
    }
    sbuf_printf(b,
                "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>dbscale report</h1>\n"
                "<p class=\"sub\">",
                css);
    page_esc(b, cv->subtitle);
    sbuf_printf(b, "</p>\n");
    page_kernels_banner(v, b);
    answer(cv, v, b);
    warnings(cv, b);
    graphs(cv, b);
    page_why(cv, v ? &v->ev : NULL, b); /* where the server's time went, from the why files */
    sbuf_printf(b, "<h2>Tables</h2>\n<h3>Throughput</h3>\n");
    page_table_tps(cv, b);
    sbuf_printf(b, "<h3>Speedup over the fewest CPUs</h3>\n<p class=\"note\">Median TPS over the "
                   "median TPS of the curve of the same results, engine and workload with the "
                   "fewest CPUs, at the same threads; below, that over the CPU ratio.</p>\n");
    page_table_speedup(cv, b);
    sbuf_printf(b, "<h3>Latency</h3>\n");
    page_table_latency(cv, b);
    sbuf_printf(b, "<h3>Universal Scalability Law</h3>\n");
    page_table_usl(cv, b);
    if (cv->ndirs > 1) {
        sbuf_printf(b, "<h2>Comparison</h2>\n");
        page_table_relative(cv, b);
    }
    page_kernels(cv, v, b);
    baseline(cv, b);
    sbuf_printf(b, "<h2>The study</h2>\n");
    page_study(cv, b);
    sbuf_printf(b,
                "<p class=\"note\">Page written by dbscale %s (%s). Self-contained: no "
                "scripts, nothing fetched.</p>\n</body>\n</html>\n",
                DBSCALE_VERSION, DBSCALE_GIT);
}

int page_write(const struct curves *cv, const struct verdict *v, const char *path, char *err,
               size_t errlen)
{
    struct sbuf b = {0};
    page_render(cv, v, &b);
    int rc = write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    if (rc < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror(-rc));
        return -1;
    }
    return 0;
}

int page_load(struct curves *cv, char **paths, size_t n)
{
    if (curves_load(cv, paths, n) < 0)
        return -1;
    curves_build(cv);
    return 0;
}
