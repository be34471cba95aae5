/*
 * report.c - the end-of-sweep table (the run report is report_run.c). All
 * formatting lives in these two files so the worker only counts and the
 * verbs only decide what to print.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

void report_sweep_summary(FILE *f, const struct result_row *rows, size_t n)
{
    char *done = xcalloc(n, 1);
    fprintf(f, "\n%-12s %5s %8s %11s %21s %8s %7s\n", "variant", "cpus", "threads", "median tps",
            "min..max", "speedup", "effic.");
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        /* one curve: this variant and CPU count */
        int th[256], nt = 0;
        for (size_t j = i; j < n; j++) {
            if (strcmp(rows[j].variant, rows[i].variant) || rows[j].cpus != rows[i].cpus)
                continue;
            done[j] = 1;
            int seen = 0;
            for (int k = 0; k < nt; k++)
                seen |= th[k] == rows[j].threads;
            if (!seen && nt < 256)
                th[nt++] = rows[j].threads;
        }
        qsort(th, (size_t)nt, sizeof th[0], cmp_int);
        double xs[256], ns[256], lo[256], hi[256];
        for (int k = 0; k < nt; k++) {
            double v[1024];
            size_t m = 0;
            for (size_t j = i; j < n && m < 1024; j++)
                if (!strcmp(rows[j].variant, rows[i].variant) && rows[j].cpus == rows[i].cpus &&
                    rows[j].threads == th[k])
                    v[m++] = rows[j].tps;
            struct stats_summary s;
            stats_summarize(v, m, &s);
            xs[k] = s.median;
            lo[k] = s.min;
            hi[k] = s.max;
            ns[k] = th[k];
        }
        for (int k = 0; k < nt; k++) {
            char spread[48];
            snprintf(spread, sizeof spread, "%.1f..%.1f", lo[k], hi[k]);
            fprintf(f, "%-12s %5d %8d %11.1f %21s %8.2f %6.0f%%\n", rows[i].variant, rows[i].cpus,
                    th[k], xs[k], spread, stats_speedup(ns, xs, (size_t)k),
                    100 * stats_efficiency(ns, xs, (size_t)k));
        }
        size_t pk = stats_peak(xs, (size_t)nt);
        double drop = xs[pk] > 0 ? (xs[nt - 1] / xs[pk] - 1) * 100 : 0;
        fprintf(f, "%-12s %5d   peak %.1f tps at %d threads; at %d threads %+.0f%% from peak\n\n",
                rows[i].variant, rows[i].cpus, xs[pk], th[pk], th[nt - 1], drop);
    }
    free(done);
}
