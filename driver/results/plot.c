/*
 * plot.c - `dbscale plot RESULTS_DIR...`: scaling graphs and the statistics
 * table for one or several results directories. This room groups the result
 * rows into curves (one per directory, engine, workload, variant and CPU
 * count), labels them, adds the kernel baseline from micro.csv, prints the
 * summary table and runs the verb; plot_gp.c turns the curves into data
 * files, gnuplot scripts and pictures.
 *
 * The one idea: C computes, gnuplot draws. Every number on a graph (medians,
 * error bars, ideal line, speedup, USL fit curve) is computed with stats.h
 * into struct plot_curve, and both summary.md and the data files behind the
 * pictures are written from that one struct, so the numbers in the table are
 * the ones on the pictures.
 *
 * Never draw or format for gnuplot here (that is plot_gp.c), never print
 * (the verb, verbs/plot_verb.c, prints what p->log holds), and never
 * silently make a broken picture: an error from gnuplot fails the run.
 */
#include "results/plot.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/input.h"
#include "results/meta.h"
#include "results/plot_gp.h"
#include "results/results.h"
#include "core/safefile.h"
#include "stats/stats.h"

/* ---- meta.json: the few fields a label shows ---- */

/* The release out of meta.json's "Linux 6.1.0-26-amd64 #1 SMP PREEMPT_DYNAMIC
 * Debian ..." (sysname, release, version): the version part is build noise
 * a reader does not need in a subtitle. A string of one word is kept whole. */
static const char *kernel_release(const char *k)
{
    static char rel[96];
    const char *sp = strchr(k, ' ');
    if (!sp)
        return k;
    snprintf(rel, sizeof rel, "%.*s", (int)strcspn(sp + 1, " "), sp + 1);
    return rel[0] ? rel : k;
}

/* Through meta.json's one owner (results/meta.c). A missing file or bad
 * JSON leaves "" (a label without a host is still a graph); one that is
 * there but unreadable is said (a warning), never dropped silently. The
 * parsed object stays in d->meta for the page (page.c), which shows more
 * of it; plot_free() frees it. */
static void read_meta(struct plot *p, struct plot_dir *d)
{
    struct meta m;
    char path[600], err[600];
    snprintf(path, sizeof path, "%s/meta.json", d->path);
    d->host[0] = d->kernel[0] = d->server[0] = d->cpu_model[0] = '\0';
    d->time_s = d->warmup_s = 0;
    d->repeats = 0;
    d->meta = NULL;
    struct stat st;
    if (lstat(path, &st) < 0)
        return;
    if (meta_load(path, &m, err, sizeof err) < 0) {
        sbuf_printf(&p->log->warn,
                    "meta.json left out (no machine, server, study or reproduce command for "
                    "%s): %s\n",
                    d->path, err);
        return;
    }
    snprintf(d->host, sizeof d->host, "%s", m.host);
    snprintf(d->kernel, sizeof d->kernel, "%s", kernel_release(m.kernel));
    plot_server_name(m.engine, m.server_version, d->server, sizeof d->server);
    snprintf(d->cpu_model, sizeof d->cpu_model, "%s", m.cpu_model);
    d->time_s = m.time_s;
    d->warmup_s = m.warmup_s;
    d->repeats = m.repeats;
    d->meta = json_incref(m.raw);
    meta_free(&m);
}

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
static void build_curve(struct plot_curve *c, const struct row_ref *ref, size_t n)
{
    double *v = xmalloc(5 * (n + 1) * sizeof *v), *l50 = v + n + 1, *l95 = l50 + n + 1,
           *l99 = l95 + n + 1, *idle = l99 + n + 1;
    size_t t = 0;
    for (size_t i = 0; i < n && t < PLOT_MAXPTS;) {
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

struct curve_order {
    struct plot_curve c;
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
static void build_curves(struct plot *p)
{
    size_t n = 0;
    for (size_t d = 0; d < p->ndirs; d++)
        n += p->dirs[d].rs.n;
    struct row_ref *ref = xcalloc(n + 1, sizeof *ref);
    size_t k = 0;
    for (size_t d = 0; d < p->ndirs; d++)
        for (size_t i = 0; i < p->dirs[d].rs.n; i++)
            ref[k++] = (struct row_ref){&p->dirs[d].rs.rows[i], (int)d, i};
    qsort(ref, n, sizeof *ref, cmp_ref);
    struct curve_order *o = xcalloc(n + 1, sizeof *o);
    size_t nc = 0;
    for (size_t i = 0, j; i < n; i = j) {
        size_t first = ref[i].at;
        for (j = i + 1; j < n && !cmp_curve_key(&ref[i], &ref[j]); j++)
            first = ref[j].at < first ? ref[j].at : first;
        struct plot_curve *c = &o[nc].c;
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
    p->c = xcalloc(nc + 1, sizeof *p->c);
    for (size_t i = 0; i < nc; i++)
        p->c[i] = o[i].c;
    p->nc = nc;
    free(o);
    free(ref);
}

/* Each curve against the curve with the fewest CPUs of its results dir,
 * engine and workload (the variant differs by design: "up", "smp-k2"). */
static void cpu_scaling(struct plot *p)
{
    for (size_t i = 0; i < p->nc; i++) {
        struct plot_curve *c = &p->c[i];
        c->base = -1;
        for (size_t j = 0; j < p->nc; j++) {
            const struct plot_curve *o = &p->c[j];
            if (o->dir != c->dir || strcmp(o->engine, c->engine) ||
                strcmp(o->workload, c->workload) || o->cpus <= 0)
                continue;
            if (c->base < 0 || o->cpus < p->c[c->base].cpus)
                c->base = (int)j;
        }
        for (size_t t = 0; t < c->k; t++) {
            c->cpu_speedup[t] = c->cpu_eff[t] = NAN;
            if (c->base < 0 || c->cpus <= 0)
                continue;
            const struct plot_curve *b = &p->c[c->base];
            for (size_t u = 0; u < b->k; u++)
                if (b->n[u] == c->n[t] && b->x[u] > 0) {
                    c->cpu_speedup[t] = c->x[t] / b->x[u];
                    c->cpu_eff[t] = c->cpu_speedup[t] / ((double)c->cpus / b->cpus);
                }
        }
    }
}

/* ---- summary ---- */

static void fmt_n(char *b, size_t len, double v)
{
    if (isinf(v))
        snprintf(b, len, "inf");
    else
        snprintf(b, len, "%.1f", v);
}

/* "1.23", or "-" where there is no figure (no fewer-CPUs curve at that count). */
static void fmt_opt(char *b, size_t len, const char *fmt, double v)
{
    if (isnan(v))
        snprintf(b, len, "-");
    else
        snprintf(b, len, fmt, v);
}

/* A latency, or "n/a" where the results hold none (NAN): never 0. */
static void fmt_lat(char *b, size_t len, double v)
{
    if (isnan(v))
        snprintf(b, len, "n/a");
    else
        snprintf(b, len, "%.3f", v);
}

/* Why point t of c beats its ideal, from what the results hold. */
static void superlinear_reason(const struct plot_curve *c, size_t t, char *b, size_t len)
{
    if (c->idle[0] >= 0 && c->idle[0] >= 20)
        snprintf(b, len,
                 "the server was %.0f%% idle at %g thread%s: the first point is latency-bound, "
                 "not CPU-bound, so more threads fill idle CPU",
                 c->idle[0], c->n[0], c->n[0] == 1 ? "" : "s");
    else if (c->idle[0] >= 0)
        snprintf(b, len, "reason unknown (server %.0f%% idle at %g threads, %.0f%% at %g)",
                 c->idle[0], c->n[0], c->idle[t], c->n[t]);
    else
        snprintf(b, len, "reason unknown (the results hold no idle_pct/server_cpu_s)");
}

/* The USL fit of each curve, with its measured peak and knee. */
static void usl_table(const struct plot *p, struct sbuf *txt, struct sbuf *md)
{
    int lw = 5;
    for (size_t i = 0; i < p->nc; i++)
        lw = (int)strlen(p->c[i].label) > lw ? (int)strlen(p->c[i].label) : lw;
    lw = lw > 100 ? 100 : lw;
    sbuf_printf(txt, "%-4s %-*s %7s %8s %9s %6s %7s %13s %7s\n", "", lw, "curve", "sigma", "kappa",
                "lambda", "R2", "N*", "peak", "knee");
    sbuf_printf(md, "## Scalability (Universal Scalability Law fit)\n\n"
                    "| | curve | σ | κ | λ (tps/thread) | R² | N* | peak | knee |\n"
                    "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < p->nc; i++) {
        const struct plot_curve *c = &p->c[i];
        char pk[64], kn[32] = "none";
        snprintf(pk, sizeof pk, "%.0f@%g", c->x[c->peak], c->n[c->peak]);
        if (c->knee < c->k)
            snprintf(kn, sizeof kn, "%g", c->n[c->knee]);
        if (c->fit_ok) {
            char ns[32];
            fmt_n(ns, sizeof ns, c->usl.nstar);
            sbuf_printf(txt, "c%-3zu %-*.*s %7.4f %8.5f %9.1f %6.3f %7s %13s %7s\n", i + 1, lw, lw,
                        c->label, c->usl.sigma, c->usl.kappa, c->usl.lambda, c->usl.r2, ns, pk, kn);
            sbuf_printf(md, "| c%zu | %s | %.4f | %.5f | %.1f | %.3f | %s | %.0f tps @ %g | %s |\n",
                        i + 1, c->label, c->usl.sigma, c->usl.kappa, c->usl.lambda, c->usl.r2, ns,
                        c->x[c->peak], c->n[c->peak], kn);
        } else {
            char nf[96];
            snprintf(nf, sizeof nf, "no fit: %s", c->nofit);
            sbuf_printf(txt, "c%-3zu %-*.*s %-39s %13s %7s\n", i + 1, lw, lw, c->label, nf, pk, kn);
            sbuf_printf(md, "| c%zu | %s | %s | | | | | %.0f tps @ %g | %s |\n", i + 1, c->label,
                        nf, c->x[c->peak], c->n[c->peak], kn);
        }
    }
    sbuf_printf(txt, "  N* = sqrt((1 - sigma) / kappa), the predicted peak; a fit is shown only "
                     "with >= 4 points, 0 <= sigma < 1, kappa >= 0, R2 >= 0.9; peak = tps@threads "
                     "measured; knee = first thread count whose gain per added thread is under "
                     "10%% of linear\n\n");
    sbuf_printf(md, "\nN* = sqrt((1 − σ) / κ) is the predicted peak. A fit is shown only with at "
                    "least 4 points, 0 ≤ σ < 1, κ ≥ 0 and R² ≥ 0.9; otherwise \"no fit\" and why. "
                    "The peak is measured (tps @ threads); the knee is the first thread count "
                    "whose gain per added thread falls under 10%% of linear.\n\n");
}

/* Every point, in txt, md and csv; each superlinear point's reason into notes. */
static void points_table(const struct plot *p, struct sbuf *txt, struct sbuf *md, struct sbuf *csv,
                         struct sbuf *notes)
{
    sbuf_printf(txt, "%-4s %7s %10s %8s %23s %8s %6s %8s %6s %3s\n", "", "threads", "median",
                "p95 ms", "95% CI", "speedup", "eff", "xcpus", "cpueff", "n");
    sbuf_printf(md, "## Points\n\n| | threads | median tps | p95 ms | 95%% CI | speedup | "
                    "efficiency | speedup vs fewest CPUs | CPU efficiency | n |\n"
                    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    sbuf_printf(csv, "curve,results,engine,workload,variant,cpus,threads,repeats,median_tps,"
                     "mean_tps,sd_tps,ci95_lo,ci95_hi,min_tps,max_tps,speedup,efficiency,"
                     "p50_ms,p95_ms,p99_ms,usl_sigma,usl_kappa,usl_lambda,usl_r2,usl_nstar,"
                     "peak_threads,knee_threads,superlinear,base_cpus,cpu_speedup,cpu_efficiency,"
                     "usl_no_fit\n");
    for (size_t i = 0; i < p->nc; i++) {
        const struct plot_curve *c = &p->c[i];
        for (size_t t = 0; t < c->k; t++) {
            const struct stats_summary *s = &c->tp[t];
            char ci[64], ef[32], xs[32], ce[32], l95[32];
            /* One repeat has no interval; throughput is never negative, so a
             * wide interval is shown cut at 0. */
            if (s->n < 2)
                snprintf(ci, sizeof ci, "-");
            else
                snprintf(ci, sizeof ci, "%.1f..%.1f", fmax(0, s->ci_lo), s->ci_hi);
            double sp = stats_speedup(c->n, c->x, t);
            snprintf(ef, sizeof ef, "%.0f%%%s", c->eff[t] * 100, c->superlinear[t] ? "!" : "");
            fmt_opt(xs, sizeof xs, "%.2f", c->cpu_speedup[t]);
            fmt_opt(ce, sizeof ce, "%.0f%%", c->cpu_eff[t] * 100);
            fmt_lat(l95, sizeof l95, c->p95[t]);
            sbuf_printf(txt, "c%-3zu %7g %10.1f %8s %23s %8.2f %6s %8s %6s %3zu\n", i + 1, c->n[t],
                        s->median, l95, ci, sp, ef, xs, ce, s->n);
            sbuf_printf(md, "| c%zu | %g | %.1f | %s | %s | %.2f | %s | %s | %s | %zu |\n", i + 1,
                        c->n[t], s->median, l95, ci, sp, ef, xs, ce, s->n);
            sbuf_printf(csv, "c%zu,%s,%s,%s,%s,%d,%g,%zu,%.3f,%.3f,%.3f,", i + 1,
                        p->dirs[c->dir].name, c->engine, c->workload, c->variant, c->cpus, c->n[t],
                        s->n, s->median, s->mean, s->sd);
            if (s->n < 2)
                sbuf_printf(csv, ",,");
            else
                sbuf_printf(csv, "%.3f,%.3f,", s->ci_lo, s->ci_hi);
            sbuf_printf(csv, "%.3f,%.3f,%.4f,%.4f,", s->min, s->max, sp, c->eff[t]);
            if (isnan(c->p95[t])) /* not measured: empty, never 0 */
                sbuf_printf(csv, ",,,");
            else
                sbuf_printf(csv, "%.4f,%.4f,%.4f,", c->p50[t], c->p95[t], c->p99[t]);
            if (c->fit_ok)
                sbuf_printf(csv, "%.6g,%.6g,%.6g,%.6g,%.6g,", c->usl.sigma, c->usl.kappa,
                            c->usl.lambda, c->usl.r2, c->usl.nstar);
            else
                sbuf_printf(csv, ",,,,,");
            sbuf_printf(csv, "%g,", c->n[c->peak]);
            if (c->knee < c->k)
                sbuf_printf(csv, "%g", c->n[c->knee]);
            sbuf_printf(csv, ",%d,", c->superlinear[t]);
            if (!isnan(c->cpu_speedup[t]))
                sbuf_printf(csv, "%d,%.4f,%.4f", p->c[c->base].cpus, c->cpu_speedup[t],
                            c->cpu_eff[t]);
            else
                sbuf_printf(csv, ",,");
            sbuf_printf(csv, ",%s\n", c->fit_ok ? "" : c->nofit);
            if (c->superlinear[t]) {
                char why[200];
                superlinear_reason(c, t, why, sizeof why);
                sbuf_printf(notes, "c%zu at %g threads: %.0f%% of ideal (superlinear); %s\n", i + 1,
                            c->n[t], c->eff[t] * 100, why);
            }
        }
    }
    const char *legend =
        "efficiency: median over the ideal that is linear from the first point up to the "
        "server's CPU count and flat after (! = superlinear, over 105%); xcpus: speedup over "
        "the curve of the same results, engine and workload with the fewest CPUs, at the same "
        "threads; cpueff: xcpus / (cpus / fewest cpus); 95% CI of the mean, - with one repeat";
    sbuf_printf(txt, "  %s\n", legend);
    sbuf_printf(md, "\n%s.\n", legend);
}

/* At the peak: each curve's best against its fewest-CPUs curve's best. */
static void peak_table(const struct plot *p, struct sbuf *txt, struct sbuf *md)
{
    sbuf_printf(txt, "\n%-4s %10s %8s %8s %10s %8s %6s\n", "peak", "tps", "threads", "p95 ms",
                "vs cpus", "speedup", "eff");
    sbuf_printf(md, "\n## At the peak\n\n| | peak tps | threads | p95 ms | vs CPUs | speedup | "
                    "CPU efficiency |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < p->nc; i++) {
        const struct plot_curve *c = &p->c[i];
        char vs[32] = "-", sp[32] = "-", ef[32] = "-";
        if (c->base >= 0 && c->cpus > 0) {
            const struct plot_curve *b = &p->c[c->base];
            double bx = b->x[b->peak];
            if (bx > 0) {
                snprintf(vs, sizeof vs, "%d/%d", c->cpus, b->cpus);
                snprintf(sp, sizeof sp, "%.2f", c->x[c->peak] / bx);
                snprintf(ef, sizeof ef, "%.0f%%",
                         100 * c->x[c->peak] / bx / ((double)c->cpus / b->cpus));
            }
        }
        char l95[32];
        fmt_lat(l95, sizeof l95, c->p95[c->peak]);
        sbuf_printf(txt, "c%-3zu %10.1f %8g %8s %10s %8s %6s\n", i + 1, c->x[c->peak],
                    c->n[c->peak], l95, vs, sp, ef);
        sbuf_printf(md, "| c%zu | %.1f | %g | %s | %s | %s | %s |\n", i + 1, c->x[c->peak],
                    c->n[c->peak], l95, vs, sp, ef);
    }
}

static void summary(const struct plot *p, struct sbuf *txt, struct sbuf *md, struct sbuf *csv)
{
    struct sbuf notes = {0};
    usl_table(p, txt, md);
    points_table(p, txt, md, csv, &notes);
    peak_table(p, txt, md);
    if (notes.len) {
        sbuf_printf(txt, "\n%s", notes.s);
        sbuf_printf(md, "\n## Superlinear points\n\n");
        for (char *l = notes.s, *e; l && *l; l = e ? e + 1 : NULL) {
            e = strchr(l, '\n');
            sbuf_printf(md, "- %.*s\n", e ? (int)(e - l) : (int)strlen(l), l);
        }
    }
    sbuf_add(txt, "\n", 1);
    sbuf_free(&notes);
}

/* ---- the run ---- */

/* DIR/intervals.csv, the levels' time series, when the sweep wrote one; an
 * unreadable one is left out with a warning (the scaling graphs stand). */
static void read_intervals(struct plot *p, struct plot_dir *d)
{
    char path[600], err[800];
    snprintf(path, sizeof path, "%s/intervals.csv", d->path);
    if (access(path, F_OK) == 0 && intervals_read(path, &d->iv, err, sizeof err) < 0) {
        sbuf_printf(&p->log->warn, "time series left out: %s\n", err);
        intervals_free(&d->iv);
    }
    snprintf(path, sizeof path, "%s/latency.csv", d->path);
    if (access(path, F_OK) == 0 && latcsv_read(path, &d->lat, err, sizeof err) < 0) {
        sbuf_printf(&p->log->warn, "latency distributions left out: %s\n", err);
        latcsv_free(&d->lat);
    }
}

/* A directory of `dbscale micro` or `dbscale fs`: micro.csv or fs.csv and
 * no results.csv. */
static int kernel_only(const char *dir)
{
    char a[600], b[600], c[600];
    snprintf(a, sizeof a, "%s/results.csv", dir);
    snprintf(b, sizeof b, "%s/micro.csv", dir);
    snprintf(c, sizeof c, "%s/fs.csv", dir);
    return access(a, F_OK) != 0 && (access(b, F_OK) == 0 || access(c, F_OK) == 0);
}

/* The i-th of the comma-separated labels into name, when given and not empty. */
static void nth_label(const char *labels, size_t i, char *name, size_t len)
{
    for (const char *l = labels; l && *l; i--) {
        size_t n = strcspn(l, ",");
        if (i == 0) {
            if (n)
                snprintf(name, len, "%.*s", (int)n, l);
            return;
        }
        l += n + (l[n] == ',');
    }
}

int plot_load(struct plot *p, char **paths, size_t n)
{
    p->dirs = xcalloc(n + 1, sizeof *p->dirs);
    for (size_t i = 0; i < n; i++) {
        struct plot_dir *d = &p->dirs[p->ndirs++];
        snprintf(d->path, sizeof d->path, "%s", paths[i]);
        struct stat st;
        if (stat(paths[i], &st) == 0 && !S_ISDIR(st.st_mode)) { /* DIR/results.csv given */
            char *s = strrchr(d->path, '/');
            if (s)
                *s = '\0';
            else
                snprintf(d->path, sizeof d->path, ".");
        }
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s", d->path);
        size_t l = strlen(tmp);
        while (l > 1 && tmp[l - 1] == '/')
            tmp[--l] = '\0';
        const char *base = strrchr(tmp, '/');
        snprintf(d->name, sizeof d->name, "%.63s", base ? base + 1 : tmp);
        nth_label(p->labels, i, d->name, sizeof d->name);
        if (kernel_only(d->path)) { /* a `micro` or `fs` directory: its own graph */
            read_meta(p, d);
            continue;
        }
        if (results_read(paths[i], &d->rs, p->log->err, sizeof p->log->err) < 0)
            return -1;
        if (d->rs.n == 0) {
            plot_fail(p, "%s: no result rows", paths[i]);
            return -1;
        }
        read_meta(p, d);
        read_intervals(p, d);
    }
    return 0;
}

void plot_prepare(struct plot *p)
{
    build_curves(p);
    cpu_scaling(p);
    plot_label(p);
    plot_baseline_load(p);
}

int plot_make(struct plot *p, const char *formats)
{
    char gdir[700];
    snprintf(gdir, sizeof gdir, "%s/graphs", p->out);
    const char *bad = p->out;
    int e = dir_make_nofollow(p->out, 0755); /* never through a link planted there */
    if (e == 0 && (e = dir_make_nofollow(gdir, 0755)) < 0)
        bad = gdir;
    if (e < 0) {
        plot_fail(p, "cannot create %s: %s", bad, file_strerror(e));
        return -1;
    }
    plot_prepare(p);
    struct sbuf md = {0}, csv = {0};
    sbuf_printf(&md, "# dbscale plot summary\n\n%s\n\n", p->subtitle);
    int rc = 0;
    if (p->nc == 0) { /* kernel results alone: no database table to summarise */
        if (plot_gp_data(p) < 0)
            rc = -1;
    } else {
        summary(p, &p->log->out, &md, &csv);
        if (plot_gp_data(p) < 0 || plot_gp_write(p, "summary.md", &md) < 0 ||
            plot_gp_write(p, "summary.csv", &csv) < 0)
            rc = -1;
        else
            sbuf_printf(&p->log->out, "summary: %s/summary.md, %s/summary.csv\n", p->out, p->out);
    }
    sbuf_free(&md);
    sbuf_free(&csv);
    if (rc == 0 && plot_gp_graphs(p, formats) < 0)
        rc = -1;
    /* What an earlier plot into this directory left and this one did not
     * write goes, failed run or not: no stale cpus.png beside new data. */
    char err[1200];
    if (plot_files_prune(p->out, p->written, err, sizeof err) < 0) {
        if (rc == 0)
            plot_fail(p, "%s", err);
        rc = -1;
    }
    return rc;
}

void plot_free(struct plot *p)
{
    for (size_t d = 0; d < p->ndirs; d++) {
        results_free(&p->dirs[d].rs);
        json_decref(p->dirs[d].meta);
        intervals_free(&p->dirs[d].iv);
        latcsv_free(&p->dirs[d].lat);
    }
    free(p->dirs);
    free(p->c);
    free(p->mc);
    p->dirs = NULL, p->c = NULL, p->mc = NULL;
    p->ndirs = p->nc = p->nmc = 0;
}
