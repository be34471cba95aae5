/*
 * page_rounds.c - the page's account of a study's runs (dbscale study,
 * dbscale kernels): which variant is which (each axis's label, the build's
 * version and sha256, the settings' lines), the runs in the order they ran
 * with their start times, so the interleaving shows (A B C, A B C), every
 * level's throughput against the clock, so drift shows, and the target
 * interval's outcome with the points that never met it.
 *
 * The one idea: show what the study recorded (OUT/study.json, each
 * variant's levels.csv and meta.json), joined to the rows the rest of the
 * page reads, and compute nothing a reader could not recount from them.
 *
 * Never let a string from a file reach the page but through page_esc().
 */
#include "page/page_rounds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page/page_html.h"
#include "page/page_svg.h"
#include "results/levels.h"
#include "results/studyrec.h"

/* The study directory the page's directories are the variants of: their
 * common parent, with a study.json naming each of them. 1 with r read. */
static int study_of(const struct curves *cv, struct studyrec *r, char *dir, size_t len)
{
    if (!cv->ndirs)
        return 0;
    const char *p = cv->dirs[0].path, *slash = strrchr(p, '/');
    snprintf(dir, len, "%.*s", slash ? (int)(slash - p) : 1, slash ? p : ".");
    char err[600];
    if (studyrec_read(dir, r, err, sizeof err) != 1)
        return 0;
    for (size_t i = 0; i < cv->ndirs; i++) {
        const char *d = cv->dirs[i].path, *s = strrchr(d, '/');
        size_t pl = slash ? (size_t)(slash - p) : 0;
        if (!s || (size_t)(s - d) != pl || strncmp(d, p, pl) || !studyrec_variant(r, s + 1)) {
            studyrec_free(r);
            return 0;
        }
    }
    return 1;
}

/* The build of directory d as its meta.json records it: version, sha256. */
static void build_cell(struct sbuf *b, const struct curves_dir *d)
{
    const json_t *sb = d->meta ? json_object_get(d->meta, "server_build") : NULL;
    const char *ver = json_string_value(json_object_get(sb, "version"));
    const char *sha = json_string_value(json_object_get(sb, "sha256"));
    if (!ver && !sha) {
        sbuf_printf(b, "-");
        return;
    }
    page_esc(b, ver ? ver : "");
    sbuf_printf(b, "<br><span class=\"note\">sha256 ");
    page_escf(b, "%.16s", sha ? sha : "?");
    sbuf_printf(b, "</span>");
}

static void variants(const struct curves *cv, const struct studyrec *r, struct sbuf *b)
{
    sbuf_printf(b, "<table id=\"study-variants\">\n<tr><th>variant</th>");
    const struct studyrec_variant *v0 = studyrec_variant(r, r->v[0].name);
    for (int a = 0; v0 && a < v0->nvalues; a++) {
        sbuf_printf(b, "<th>");
        page_esc(b, v0->values[a][0]);
        sbuf_printf(b, "</th>");
    }
    sbuf_printf(b, "<th>what it adds to the command</th><th>server build (meta.json)</th></tr>\n");
    for (size_t i = 0; i < cv->ndirs; i++) {
        const struct curves_dir *d = &cv->dirs[i];
        const struct studyrec_variant *v = studyrec_variant(r, strrchr(d->path, '/') + 1);
        sbuf_printf(b, "<tr><td>");
        page_esc(b, v->name);
        sbuf_printf(b, "</td>");
        for (int a = 0; v0 && a < v0->nvalues; a++) {
            sbuf_printf(b, "<td>");
            page_esc(b, a < v->nvalues ? v->values[a][1] : "");
            sbuf_printf(b, "</td>");
        }
        sbuf_printf(b, "<td><code>");
        page_esc(b, v->words[0] ? v->words : "(nothing)");
        sbuf_printf(b, "</code></td><td>");
        build_cell(b, d);
        sbuf_printf(b, "</td></tr>\n");
    }
    sbuf_printf(b, "</table>\n");
}

/* Seconds since the study began of an ISO-less run: its t_start. */
static void runs_table(const struct studyrec *r, double t0, struct sbuf *b)
{
    sbuf_printf(b, "<table id=\"study-runs\">\n<tr><th>#</th><th>started</th><th>+s</th>"
                   "<th>variant</th><th>repeat</th><th>only</th><th>status</th>"
                   "<th>seconds</th></tr>\n");
    for (size_t i = 0; i < r->nruns; i++) {
        const struct studyrec_run *u = &r->runs[i];
        sbuf_printf(b, "<tr class=\"run\"><td>%zu</td><td>", i + 1);
        page_esc(b, u->started[0] ? u->started : "-");
        sbuf_printf(b, "</td><td>");
        if (u->t_start > 0)
            sbuf_printf(b, "%.1f", u->t_start - t0);
        sbuf_printf(b, "</td><td>");
        page_esc(b, u->variant);
        sbuf_printf(b, "</td><td>%d</td><td>", u->repeat);
        if (u->only_cpus[0])
            page_escf(b, "cpus %s, threads %s", u->only_cpus, u->only_threads);
        sbuf_printf(b, "</td><td>");
        page_esc(b, u->status);
        sbuf_printf(b, "</td><td>%.1f</td></tr>\n", u->seconds);
    }
    sbuf_printf(b, "</table>\n");
}

/* The row of d's results.csv that levels.csv's l is, or NULL. */
static const struct result_row *row_of(const struct curves_dir *d, const struct level_time *l)
{
    for (size_t i = 0; i < d->rs.n; i++) {
        const struct result_row *r = &d->rs.rows[i];
        if (r->cpus == l->cpus && r->threads == l->threads && r->repeat == l->repeat &&
            !strcmp(r->variant, l->variant))
            return r;
    }
    return NULL;
}

#define DRIFT_SERIES 8

/* Every level's throughput against the minute it started: a series per
 * variant and point (at most DRIFT_SERIES; past that a series per variant
 * at its most threads). */
static void drift(const struct curves *cv, double t0, struct sbuf *b)
{
    struct page_series *s = calloc(DRIFT_SERIES, sizeof *s);
    size_t ns = 0, dropped = 0;
    for (size_t i = 0; i < cv->ndirs; i++) {
        const struct curves_dir *d = &cv->dirs[i];
        struct levels lv = {0};
        char err[600];
        if (levels_read(d->path, &lv, err, sizeof err) < 0) {
            levels_free(&lv);
            continue;
        }
        int most = 0;
        for (size_t k = 0; k < lv.n; k++)
            most = lv.rows[k].threads > most ? lv.rows[k].threads : most;
        for (size_t k = 0; k < lv.n; k++) {
            const struct level_time *l = &lv.rows[k];
            const struct result_row *row = row_of(d, l);
            if (!row || row->disturbed)
                continue;
            char label[256];
            snprintf(label, sizeof label, "%s %s, %d CPUs, %d threads", d->name, l->variant,
                     l->cpus, l->threads);
            size_t j = 0;
            while (j < ns && strcmp(s[j].label, label))
                j++;
            if (j == ns &&
                (ns == DRIFT_SERIES || (cv->ndirs * 2 > DRIFT_SERIES && l->threads != most))) {
                dropped++;
                continue;
            }
            if (j == ns)
                snprintf(s[ns++].label, sizeof s->label, "%s", label);
            if (s[j].k < PAGE_SVG_MAXPTS) {
                s[j].x[s[j].k] = (l->started - t0) / 60;
                s[j].y[s[j].k++] = row->tps;
            }
        }
        levels_free(&lv);
    }
    if (ns) {
        struct page_chart c = {"Throughput against the time each level started",
                               "minutes since the study started",
                               "TPS",
                               0,
                               s,
                               ns,
                               NULL};
        sbuf_printf(b, "<figure id=\"study-drift\">");
        page_svg_chart(b, &c);
        sbuf_printf(b,
                    "</figure>\n<p class=\"note\">A variant's repeats of one point spread "
                    "over the study: a line that climbs or falls for every variant alike is "
                    "the machine drifting, which interleaving shares out evenly.%s</p>\n",
                    dropped ? " Only each variant's most threads are drawn." : "");
    } else {
        sbuf_printf(b, "<p class=\"note\">No levels.csv: the levels' start times were not "
                       "recorded (results from before dbscale kept them).</p>\n");
    }
    free(s);
}

static void target(const struct studyrec *r, struct sbuf *b)
{
    if (!r->has_target)
        return;
    sbuf_printf(b,
                "<h3>Repeats until the answer is clear</h3>\n<p id=\"study-target\">Target: "
                "every point's 95%% interval of the median within &plusmn;%g%% (from 3 "
                "repeats), at most %d repeats a point",
                r->ci_pct, r->max_repeats);
    if (r->max_time_s > 0)
        sbuf_printf(b, ", no round past %g s", r->max_time_s);
    sbuf_printf(b, "; %d round%s added. ", r->rounds_added, r->rounds_added == 1 ? "" : "s");
    page_esc(b, r->end[0] ? r->end : "Not judged: the study stopped first.");
    sbuf_printf(b, "</p>\n");
    if (!r->nunmet)
        return;
    sbuf_printf(b, "<table id=\"study-unmet\">\n<tr><th>never met: variant</th><th>label</th>"
                   "<th>CPUs</th><th>threads</th><th>repeats</th><th>median TPS</th>"
                   "<th>95%% interval</th><th>&plusmn;</th></tr>\n");
    for (size_t i = 0; i < r->nunmet; i++) {
        const struct studyrec_point *p = &r->unmet[i];
        sbuf_printf(b, "<tr class=\"unmet\"><td>");
        page_esc(b, p->variant);
        sbuf_printf(b, "</td><td>");
        page_esc(b, p->label);
        sbuf_printf(b, "</td><td>%d</td><td>%d</td><td>%d</td><td>%.1f</td><td>%.1f..%.1f</td>",
                    p->cpus, p->threads, p->repeats, p->median, p->lo, p->hi);
        if (p->half_pct >= 0 && isfinite(p->half_pct))
            sbuf_printf(b, "<td>%.1f%%</td></tr>\n", p->half_pct);
        else
            sbuf_printf(b, "<td>-</td></tr>\n");
    }
    sbuf_printf(b, "</table>\n");
}

void page_rounds(const struct curves *cv, struct sbuf *b)
{
    struct studyrec r;
    char dir[600];
    if (!study_of(cv, &r, dir, sizeof dir))
        return;
    double t0 = 0;
    for (size_t i = 0; i < r.nruns; i++)
        if (r.runs[i].t_start > 0 && (t0 == 0 || r.runs[i].t_start < t0))
            t0 = r.runs[i].t_start;
    sbuf_printf(b, "<h3>The variants</h3>\n<p>A study (");
    page_esc(b, r.verb[0] ? r.verb : "study");
    sbuf_printf(b, ", %zu variants, %d planned round%s, runs on the ", r.nv, r.rounds,
                r.rounds == 1 ? "" : "s");
    page_esc(b, r.backend[0] ? r.backend : "host");
    sbuf_printf(b, "): every round runs each variant once, in the same order, so a drifting "
                   "machine biases none of them.</p>\n");
    variants(cv, &r, b);
    sbuf_printf(b, "<h3>The runs, in the order they ran</h3>\n");
    runs_table(&r, t0, b);
    drift(cv, t0, b);
    target(&r, b);
    studyrec_free(&r);
}
