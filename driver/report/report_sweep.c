/*
 * report_sweep.c - the end-of-sweep table (the run report is report_run.c). All
 * formatting lives in these two files so the worker only counts and the
 * verbs only decide what to print.
 */
#include "report/report_sweep.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "core/util.h"

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* One curve of the end-of-sweep table: a variant at a CPU count. */
struct sum_curve {
    const char *variant;
    int cpus, nt;
    int th[256];
    double ns[256], xs[256], lo[256], hi[256], p95[256];
};

static void sum_build(struct sum_curve *c, const struct result_row *rows, size_t n, size_t first,
                      char *done)
{
    c->variant = rows[first].variant;
    c->cpus = rows[first].cpus;
    c->nt = 0;
    for (size_t j = first; j < n; j++) {
        if (strcmp(rows[j].variant, c->variant) || rows[j].cpus != c->cpus)
            continue;
        done[j] = 1;
        int seen = 0;
        for (int k = 0; k < c->nt; k++)
            seen |= c->th[k] == rows[j].threads;
        if (!seen && c->nt < 256)
            c->th[c->nt++] = rows[j].threads;
    }
    qsort(c->th, (size_t)c->nt, sizeof c->th[0], cmp_int);
    double *v = xmalloc((n + 1) * sizeof *v), *l = xmalloc((n + 1) * sizeof *l);
    for (int k = 0; k < c->nt; k++) {
        size_t m = 0;
        for (size_t j = first; j < n; j++)
            if (!strcmp(rows[j].variant, c->variant) && rows[j].cpus == c->cpus &&
                rows[j].threads == c->th[k]) {
                l[m] = rows[j].lat_p95_ms;
                v[m++] = rows[j].tps;
            }
        struct stats_summary s;
        stats_summarize(v, m, &s);
        c->xs[k] = s.median, c->lo[k] = s.min, c->hi[k] = s.max;
        c->p95[k] = stats_median(l, m);
        c->ns[k] = c->th[k];
    }
    free(v), free(l);
}

void report_sweep_summary(FILE *f, const struct result_row *rows, size_t n)
{
    char *done = xcalloc(n + 1, 1);
    struct sum_curve *cv = NULL; /* ~10 KB a curve: grown as curves appear */
    size_t nc = 0, cap = 0, base = 0;
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        if (nc == cap) {
            cap = cap ? cap * 2 : 8;
            cv = xrealloc(cv, cap * sizeof *cv);
        }
        sum_build(&cv[nc++], rows, n, i, done);
    }
    for (size_t c = 1; c < nc; c++) /* the fewest-CPUs variant: what more CPUs are measured by */
        if (cv[c].cpus > 0 && (cv[base].cpus <= 0 || cv[c].cpus < cv[base].cpus))
            base = c;
    const struct sum_curve *b = nc ? &cv[base] : NULL;
    fprintf(f, "\n%-12s %5s %8s %11s %21s %8s %8s %7s %7s %7s\n", "variant", "cpus", "threads",
            "median tps", "min..max", "p95 ms", "speedup", "effic.", "xcpus", "cpueff");
    int superlinear = 0;
    for (size_t i = 0; i < nc; i++) {
        const struct sum_curve *c = &cv[i];
        for (int k = 0; k < c->nt; k++) {
            char spread[48], ef[16], xc[16] = "-", ce[16] = "-";
            snprintf(spread, sizeof spread, "%.1f..%.1f", c->lo[k], c->hi[k]);
            double e = stats_efficiency_cpus(c->ns, c->xs, (size_t)k, c->cpus);
            int sl = stats_superlinear(c->ns, c->xs, (size_t)k, c->cpus);
            superlinear |= sl;
            snprintf(ef, sizeof ef, "%.0f%%%s", 100 * e, sl ? "!" : "");
            for (int u = 0; b && b->cpus > 0 && c->cpus > 0 && u < b->nt; u++)
                if (b->th[u] == c->th[k] && b->xs[u] > 0) {
                    double sp = c->xs[k] / b->xs[u];
                    snprintf(xc, sizeof xc, "%.2f", sp);
                    snprintf(ce, sizeof ce, "%.0f%%", 100 * sp / ((double)c->cpus / b->cpus));
                }
            fprintf(f, "%-12s %5d %8d %11.1f %21s %8.3f %8.2f %7s %7s %7s\n", c->variant, c->cpus,
                    c->th[k], c->xs[k], spread, c->p95[k], stats_speedup(c->ns, c->xs, (size_t)k),
                    ef, xc, ce);
        }
        size_t pk = stats_peak(c->xs, (size_t)c->nt);
        double drop = c->xs[pk] > 0 ? (c->xs[c->nt - 1] / c->xs[pk] - 1) * 100 : 0;
        fprintf(f, "%-12s %5d   peak %.1f tps at %d thread%s (p95 %.3f ms)", c->variant, c->cpus,
                c->xs[pk], c->th[pk], c->th[pk] == 1 ? "" : "s", c->p95[pk]);
        /* a peak at the most threads measured has nothing after it to drop
         * to: say so, not "+0% from peak" */
        if (pk + 1 == (size_t)c->nt)
            fprintf(f, ", the most threads measured");
        else
            fprintf(f, "; at %d thread%s %+.0f%% from peak", c->th[c->nt - 1],
                    c->th[c->nt - 1] == 1 ? "" : "s", drop);
        size_t bp = b ? stats_peak(b->xs, (size_t)b->nt) : 0;
        if (b && b != c && b->cpus > 0 && c->cpus > 0 && b->xs[bp] > 0)
            fprintf(f, "; vs %d CPU%s: speedup %.2f, CPU efficiency %.0f%%", b->cpus,
                    b->cpus == 1 ? "" : "s", c->xs[pk] / b->xs[bp],
                    100 * c->xs[pk] / b->xs[bp] / ((double)c->cpus / b->cpus));
        fprintf(f, "\n\n");
    }
    fprintf(f, "effic.: median over the ideal that is linear up to the server's CPUs and flat "
               "after (! superlinear: the first point was not CPU-bound); xcpus: speedup over "
               "the fewest-CPUs variant at the same threads; cpueff: xcpus / (cpus / fewest)\n");
    if (superlinear)
        fprintf(f, "superlinear points: see idle_pct in results.csv (a mostly idle server at "
                   "the first point is latency-bound) and `dbscale plot` for the reason\n");
    free(cv);
    free(done);
}
