/*
 * report.c - printing a level's figures. All formatting lives here so the
 * worker only counts and the verbs only decide what to print.
 */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "util.h"

double report_cpu_per_txn_us(const struct level_result *r)
{
    return r->txns ? (r->client_user_s + r->client_sys_s) * 1e6 / (double)r->txns : 0;
}

void report_codes(const struct level_result *r, char *buf, size_t len)
{
    size_t off = 0;
    buf[0] = '\0';
    for (int i = 0; i < r->ncodes && off < len; i++)
        off += (size_t)snprintf(buf + off, len - off, "%s%s:%llu", i ? ";" : "", r->codes[i].code,
                                (unsigned long long)r->codes[i].n);
}

void report_interval(const struct interval_stats *st, void *arg)
{
    FILE *f = arg ? arg : stdout;
    fprintf(f,
            "[ %gs ] thds: %d tps: %.2f qps: %.2f (r/w/o: %.2f/%.2f/%.2f) lat (ms,%g%%): %.2f "
            "err/s: %.2f reconn/s: %.2f\n",
            st->t, st->threads, st->tps, st->reads + st->writes + st->others, st->reads, st->writes,
            st->others, st->pct, st->lat_ms, st->errors, st->reconnects);
    fflush(f);
}

static double ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

static const char *ordinal(double p)
{
    long v = lround(p);
    if (fabs(p - (double)v) > 1e-9)
        return "th";
    if (v % 100 >= 11 && v % 100 <= 13)
        return "th";
    return v % 10 == 1 ? "st" : v % 10 == 2 ? "nd" : v % 10 == 3 ? "rd" : "th";
}

void report_text(FILE *f, const struct level_result *r, const double *pcts, int npcts)
{
    double t = r->time_s > 0 ? r->time_s : 1e-9;
    uint64_t q = r->reads + r->writes + r->others;
    fprintf(f, "SQL statistics:\n");
    fprintf(f, "    queries performed:\n");
    fprintf(f, "        read:                            %llu\n", (unsigned long long)r->reads);
    fprintf(f, "        write:                           %llu\n", (unsigned long long)r->writes);
    fprintf(f, "        other:                           %llu\n", (unsigned long long)r->others);
    fprintf(f, "        total:                           %llu\n", (unsigned long long)q);
    fprintf(f, "    transactions:                        %-6llu (%.2f per sec.)\n",
            (unsigned long long)r->txns, (double)r->txns / t);
    fprintf(f, "    queries:                             %-6llu (%.2f per sec.)\n",
            (unsigned long long)q, (double)q / t);
    fprintf(f, "    ignored errors:                      %-6llu (%.2f per sec.)\n",
            (unsigned long long)r->errors, (double)r->errors / t);
    fprintf(f, "    reconnects:                          %-6llu (%.2f per sec.)\n",
            (unsigned long long)r->reconnects, (double)r->reconnects / t);
    if (r->ncodes) {
        char codes[512];
        report_codes(r, codes, sizeof codes);
        fprintf(f, "    errors by code:                      %s\n", codes);
    }
    fprintf(f, "\nGeneral statistics:\n");
    fprintf(f, "    total time:                          %.4fs\n", r->time_s);
    fprintf(f, "    total number of events:              %llu\n", (unsigned long long)r->txns);
    fprintf(f, "\nLatency (ms):\n");
    fprintf(f, "         min:                            %10.2f\n", ms(hist_min(r->lat)));
    fprintf(f, "         avg:                            %10.2f\n", hist_mean(r->lat) / 1e6);
    fprintf(f, "         max:                            %10.2f\n", ms(hist_max(r->lat)));
    double shown[8] = {50, 95, 99};
    int ns = 3;
    for (int i = 0; i < npcts && ns < 8; i++) {
        int dup = 0;
        for (int j = 0; j < ns; j++)
            dup |= fabs(shown[j] - pcts[i]) < 1e-9;
        if (!dup && pcts[i] > 0 && pcts[i] < 100)
            shown[ns++] = pcts[i];
    }
    for (int i = 0; i < ns; i++) {
        char label[32];
        snprintf(label, sizeof label, "%g%s percentile:", shown[i], ordinal(shown[i]));
        fprintf(f, "         %-32s%10.2f\n", label, ms(hist_percentile(r->lat, shown[i])));
    }
    fprintf(f, "         sum:                            %10.2f\n",
            (double)atomic_load(&r->lat->sum) / 1e6);
    fprintf(f, "\nThreads fairness:\n");
    fprintf(f, "    events (avg/stddev):           %.4f/%.2f\n", r->fair_events_avg,
            r->fair_events_sd);
    fprintf(f, "    execution time (avg/stddev):   %.4f/%.2f\n", r->fair_time_avg, r->fair_time_sd);
    fprintf(f, "\nClient CPU (dbscale itself, %d event loop%s):\n", r->loops,
            r->loops == 1 ? "" : "s");
    fprintf(f, "    user/sys:                            %.3fs/%.3fs\n", r->client_user_s,
            r->client_sys_s);
    fprintf(f, "    per transaction:                     %.1f us\n", report_cpu_per_txn_us(r));
    fprintf(f, "    context switches per transaction:    %.2f\n",
            r->txns ? r->client_csw / (double)r->txns : 0);
}

void report_json(FILE *f, const struct level_result *r, const double *pcts, int npcts)
{
    double t = r->time_s > 0 ? r->time_s : 1e-9;
    uint64_t q = r->reads + r->writes + r->others;
    char codes[512];
    report_codes(r, codes, sizeof codes);
    fprintf(f,
            "{\"threads\": %d, \"time_s\": %.6f, \"transactions\": %llu, \"tps\": %.4f, "
            "\"queries\": %llu, \"qps\": %.4f, \"reads\": %llu, \"writes\": %llu, \"others\": "
            "%llu, \"errors\": %llu, \"reconnects\": %llu, \"error_codes\": \"%s\", ",
            r->threads, r->time_s, (unsigned long long)r->txns, (double)r->txns / t,
            (unsigned long long)q, (double)q / t, (unsigned long long)r->reads,
            (unsigned long long)r->writes, (unsigned long long)r->others,
            (unsigned long long)r->errors, (unsigned long long)r->reconnects, codes);
    fprintf(f,
            "\"latency_ms\": {\"min\": %.4f, \"avg\": %.4f, \"max\": %.4f, \"p50\": %.4f, "
            "\"p95\": %.4f, \"p99\": %.4f",
            ms(hist_min(r->lat)), hist_mean(r->lat) / 1e6, ms(hist_max(r->lat)),
            ms(hist_percentile(r->lat, 50)), ms(hist_percentile(r->lat, 95)),
            ms(hist_percentile(r->lat, 99)));
    for (int i = 0; i < npcts; i++)
        fprintf(f, ", \"p%g\": %.4f", pcts[i], ms(hist_percentile(r->lat, pcts[i])));
    fprintf(f,
            "}, \"client_cpu\": {\"user_s\": %.4f, \"sys_s\": %.4f, \"per_txn_us\": %.2f, "
            "\"csw_per_txn\": %.3f, \"loops\": %d}, \"fairness\": {\"events_avg\": %.4f, "
            "\"events_sd\": %.4f, "
            "\"time_avg\": %.4f, \"time_sd\": %.4f}}\n",
            r->client_user_s, r->client_sys_s, report_cpu_per_txn_us(r),
            r->txns ? r->client_csw / (double)r->txns : 0, r->loops, r->fair_events_avg,
            r->fair_events_sd, r->fair_time_avg, r->fair_time_sd);
}

void report_csv(FILE *f, const struct level_result *r, int header)
{
    double t = r->time_s > 0 ? r->time_s : 1e-9;
    uint64_t q = r->reads + r->writes + r->others;
    char codes[512];
    report_codes(r, codes, sizeof codes);
    if (header)
        fprintf(f, "threads,time_s,transactions,tps,queries,qps,reads,writes,others,errors,"
                   "reconnects,error_codes,lat_min_ms,lat_avg_ms,lat_p50_ms,lat_p95_ms,"
                   "lat_p99_ms,lat_max_ms,client_user_s,client_sys_s,client_cpu_per_txn_us\n");
    fprintf(f,
            "%d,%.6f,%llu,%.4f,%llu,%.4f,%llu,%llu,%llu,%llu,%llu,%s,%.4f,%.4f,%.4f,%.4f,%.4f,"
            "%.4f,%.4f,%.4f,%.2f\n",
            r->threads, r->time_s, (unsigned long long)r->txns, (double)r->txns / t,
            (unsigned long long)q, (double)q / t, (unsigned long long)r->reads,
            (unsigned long long)r->writes, (unsigned long long)r->others,
            (unsigned long long)r->errors, (unsigned long long)r->reconnects, codes,
            ms(hist_min(r->lat)), hist_mean(r->lat) / 1e6, ms(hist_percentile(r->lat, 50)),
            ms(hist_percentile(r->lat, 95)), ms(hist_percentile(r->lat, 99)), ms(hist_max(r->lat)),
            r->client_user_s, r->client_sys_s, report_cpu_per_txn_us(r));
}

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
        fprintf(f,
                "%-12s %5d   peak %.1f tps at %d threads (p95 %.3f ms); at %d threads %+.0f%% "
                "from peak",
                c->variant, c->cpus, c->xs[pk], c->th[pk], c->p95[pk], c->th[c->nt - 1], drop);
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
