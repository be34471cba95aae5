/*
 * plot_summary.c - the statistics table of `dbscale plot`: every curve's USL
 * fit, peak and knee, every point (median, spread, latency, efficiency,
 * speedup over the fewest CPUs), the peaks, and the reason for each
 * superlinear point; as text for the terminal, summary.md and summary.csv.
 *
 * The one idea: the table is the curves (analysis/curves.h) written out; it
 * computes nothing a graph or the page would not show the same.
 */
#include "plot/plot_summary.h"

#include <math.h>
#include <string.h>

#include "stats/stats.h"

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
static void superlinear_reason(const struct curve *c, size_t t, char *b, size_t len)
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
static void usl_table(const struct curves *cv, struct sbuf *txt, struct sbuf *md)
{
    int lw = 5;
    for (size_t i = 0; i < cv->nc; i++)
        lw = (int)strlen(cv->c[i].label) > lw ? (int)strlen(cv->c[i].label) : lw;
    lw = lw > 100 ? 100 : lw;
    sbuf_printf(txt, "%-4s %-*s %7s %8s %9s %6s %7s %13s %7s\n", "", lw, "curve", "sigma", "kappa",
                "lambda", "R2", "N*", "peak", "knee");
    sbuf_printf(md, "## Scalability (Universal Scalability Law fit)\n\n"
                    "| | curve | σ | κ | λ (tps/thread) | R² | N* | peak | knee |\n"
                    "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
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
static void points_table(const struct curves *cv, struct sbuf *txt, struct sbuf *md,
                         struct sbuf *csv, struct sbuf *notes)
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
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
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
                        cv->dirs[c->dir].name, c->engine, c->workload, c->variant, c->cpus, c->n[t],
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
                sbuf_printf(csv, "%d,%.4f,%.4f", cv->c[c->base].cpus, c->cpu_speedup[t],
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
static void peak_table(const struct curves *cv, struct sbuf *txt, struct sbuf *md)
{
    sbuf_printf(txt, "\n%-4s %10s %8s %8s %10s %8s %6s\n", "peak", "tps", "threads", "p95 ms",
                "vs cpus", "speedup", "eff");
    sbuf_printf(md, "\n## At the peak\n\n| | peak tps | threads | p95 ms | vs CPUs | speedup | "
                    "CPU efficiency |\n|---|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
        char vs[32] = "-", sp[32] = "-", ef[32] = "-";
        if (c->base >= 0 && c->cpus > 0) {
            const struct curve *b = &cv->c[c->base];
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

void plot_summary(const struct curves *cv, struct sbuf *txt, struct sbuf *md, struct sbuf *csv)
{
    struct sbuf notes = {0};
    usl_table(cv, txt, md);
    points_table(cv, txt, md, csv, &notes);
    peak_table(cv, txt, md);
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
