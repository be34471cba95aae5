/*
 * report_run.c - the report of one run (the run verb): sysbench's text, its
 * --report-interval lines, and the same figures as JSON or CSV.
 *
 * The one idea: a script written for sysbench's report reads the same values
 * from this one, so sysbench's sections keep their order, labels, columns and
 * blank lines; what dbscale adds is placed where no such parser looks. This
 * file only formats: it never measures, never opens a file, never exits.
 */
#include "report/report_run.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/csv.h"
#include "core/util.h"

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

static double ms(uint64_t ns)
{
    return (double)ns / 1e6;
}

typedef unsigned long long ull;

/* The percentiles dbscale shows beside sysbench's one: 50, 95, 99 and every
 * --percentile, each once. None when percentiles are disabled. */
static int shown_pcts(const struct report_run_info *ri, double *shown, int max)
{
    if (ri->npcts == 0)
        return 0;
    int n = 0;
    const double base[3] = {50, 95, 99};
    for (int i = 0; i < 3 + ri->npcts && n < max; i++) {
        double p = i < 3 ? base[i] : ri->pcts[i - 3];
        int dup = 0;
        for (int j = 0; j < n; j++)
            dup |= fabs(shown[j] - p) < 1e-9;
        if (!dup)
            shown[n++] = p;
    }
    return n;
}

void report_run_header(FILE *f, const struct report_run_info *ri)
{
    fprintf(f, "dbscale %s (sysbench-compatible)\n\n", DBSCALE_VERSION);
    fprintf(f, "Running the test with following options:\n");
    fprintf(f, "Number of threads: %lld\n", ri->threads);
    if (ri->rate > 0)
        fprintf(f, "Target transaction rate: %g/sec\n", ri->rate);
    if (ri->report_interval > 0)
        fprintf(f, "Report intermediate results every %g second(s)\n", ri->report_interval);
    if (ri->ncheckpoints > 0) {
        fprintf(f, "Report checkpoint(s) at ");
        for (int i = 0; i < ri->ncheckpoints; i++)
            fprintf(f, "%s%g", i ? ", " : "", ri->checkpoints[i]);
        fprintf(f, " seconds\n");
    }
    if (ri->rand_seed)
        fprintf(f, "Initializing random number generator from seed (%lld).\n", ri->rand_seed);
    else
        fprintf(f, "Initializing random number generator from current time\n");
    /* sysbench's forced-shutdown line takes the place of one blank line */
    if (ri->forced_in_s > 0)
        fprintf(f, "\nForcing shutdown in %lld seconds\n", ri->forced_in_s);
    else
        fprintf(f, "\n");
    fprintf(f, "\nInitializing worker threads...\n\n");
}

/* dbscale's own figures. Their labels avoid every word a sysbench parser
 * greps for (percentile, Latency, transactions, errors, events, time, avg,
 * per sec ...), so `grep X` still finds only sysbench's line. */
static void extras(FILE *f, const struct level_result *r, const struct report_run_info *ri)
{
    fprintf(f, "dbscale figures:\n");
    double shown[16];
    int ns = shown_pcts(ri, shown, 16);
    if (ns) {
        char label[128] = "ms at ", vals[256] = "";
        size_t ll = strlen(label), vl = 0;
        for (int i = 0; i < ns; i++) {
            ll += (size_t)snprintf(label + ll, sizeof label - ll, "%s%g", i ? "/" : "", shown[i]);
            vl += (size_t)snprintf(vals + vl, sizeof vals - vl, "%s%.2f", i ? "/" : "",
                                   ms(hist_percentile(r->lat, shown[i])));
            if (ll >= sizeof label || vl >= sizeof vals)
                break;
        }
        snprintf(label + strlen(label), sizeof label - strlen(label), "%%:");
        fprintf(f, "    %-37s%s\n", label, vals);
    }
    if (r->ncodes) {
        fprintf(f, "    codes seen:                          ");
        for (int i = 0; i < r->ncodes; i++)
            fprintf(f, "%s%s x%llu", i ? ", " : "", r->codes[i].code, (ull)r->codes[i].n);
        fprintf(f, "\n");
    }
    fprintf(f, "    client CPU user/sys:                 %.3fs/%.3fs (%d loop%s)\n",
            r->client_user_s, r->client_sys_s, r->loops, r->loops == 1 ? "" : "s");
    fprintf(f, "    client CPU per txn:                  %.1f us\n", report_cpu_per_txn_us(r));
    fprintf(f, "    context switches per txn:            %.2f\n",
            r->txns ? r->client_csw / (double)r->txns : 0);
    /* only when there is something to say; labels avoid "transactions"
     * so `grep transactions` still finds sysbench's one line */
    if (r->unfinished)
        fprintf(f, "    unfinished txns (given up):          %llu\n", (ull)r->unfinished);
    if (r->ramp_s >= 1) /* the ramp (worker.h), when it took long enough to matter */
        fprintf(f, "    ramp before the window (s):          %.1f\n", r->ramp_s);
    if (r->disturbed)
        fprintf(f, "    level disturbed:                     %s\n", r->disturbed_why);
    fprintf(f, "\n");
}

/* sysbench's --histogram: one row per non-empty bucket, 40 stars for the
 * fullest, then a line holding one space (sysbench prints " "). */
static void histogram(FILE *f, const struct hist *h)
{
    uint64_t top = 0;
    for (unsigned i = 0; i < HIST_BUCKETS; i++) {
        uint64_t c = atomic_load_explicit(&h->b[i], memory_order_relaxed);
        top = c > top ? c : top;
    }
    static const char stars[] = "****************************************";
    fprintf(f, "Latency histogram (values are in milliseconds)\n");
    fprintf(f, "       value  ------------- distribution ------------- count\n");
    for (unsigned i = 0; i < HIST_BUCKETS && top; i++) {
        uint64_t c = atomic_load_explicit(&h->b[i], memory_order_relaxed);
        if (!c)
            continue;
        int w = (int)floor((double)c * 40.0 / (double)top + 0.5);
        fprintf(f, "%12.3f |%-40.*s %llu\n", ms(hist_bucket_low(i)), w, stars, (ull)c);
    }
    fprintf(f, " \n");
}

/* sysbench 1.0.20's sections, byte for byte but for the numbers. */
static void sysbench_sections(FILE *f, const struct level_result *r,
                              const struct report_run_info *ri)
{
    double t = r->time_s > 0 ? r->time_s : 1e-9;
    uint64_t q = r->reads + r->writes + r->others;
    fprintf(f, "SQL statistics:\n");
    fprintf(f, "    queries performed:\n");
    fprintf(f, "        read:                            %llu\n", (ull)r->reads);
    fprintf(f, "        write:                           %llu\n", (ull)r->writes);
    fprintf(f, "        other:                           %llu\n", (ull)r->others);
    fprintf(f, "        total:                           %llu\n", (ull)q);
    fprintf(f, "    transactions:                        %-6llu (%.2f per sec.)\n", (ull)r->txns,
            (double)r->txns / t);
    fprintf(f, "    queries:                             %-6llu (%.2f per sec.)\n", (ull)q,
            (double)q / t);
    fprintf(f, "    ignored errors:                      %-6llu (%.2f per sec.)\n", (ull)r->errors,
            (double)r->errors / t);
    fprintf(f, "    reconnects:                          %-6llu (%.2f per sec.)\n",
            (ull)r->reconnects, (double)r->reconnects / t);
    if (ri->forced && r->unfinished)
        fprintf(f, "\nNumber of unfinished transactions on forced shutdown: %llu\n",
                (ull)r->unfinished);
    fprintf(f, "\nGeneral statistics:\n");
    fprintf(f, "    total time:                          %.4fs\n",
            r->total_time_s > 0 ? r->total_time_s : r->time_s);
    fprintf(f, "    total number of events:              %llu\n", (ull)r->txns);
    fprintf(f, "\nLatency (ms):\n");
    fprintf(f, "         min:                              %10.2f\n", ms(hist_min(r->lat)));
    fprintf(f, "         avg:                              %10.2f\n", hist_mean(r->lat) / 1e6);
    fprintf(f, "         max:                              %10.2f\n", ms(hist_max(r->lat)));
    if (ri->npcts > 0) {
        /* sysbench: "%3uth percentile:"; dbscale also takes 99.9 */
        char label[48];
        snprintf(label, sizeof label, "%3gth percentile:", ri->pcts[0]);
        fprintf(f, "        %-35s%10.2f\n", label, ms(hist_percentile(r->lat, ri->pcts[0])));
    } else {
        fprintf(f, "         percentile stats:               disabled\n");
    }
    fprintf(f, "         sum:                              %10.2f\n",
            (double)atomic_load(&r->lat->sum) / 1e6);
    fprintf(f, "\nThreads fairness:\n");
    fprintf(f, "    events (avg/stddev):           %.4f/%.2f\n", r->fair_events_avg,
            r->fair_events_sd);
    fprintf(f, "    execution time (avg/stddev):   %.4f/%.2f\n", r->fair_time_avg, r->fair_time_sd);
    fprintf(f, "\n");
}

/* sysbench's report exactly, in its order and line for line, then
 * dbscale's own figures after it: a parser that counts lines from the top
 * (or from "SQL statistics:") reads what it reads in sysbench's. */
void report_text(FILE *f, const struct level_result *r, const struct report_run_info *ri)
{
    if (ri->histogram)
        histogram(f, r->lat);
    sysbench_sections(f, r, ri);
    extras(f, r, ri);
}

void report_checkpoint(FILE *f, double t, const struct level_result *r,
                       const struct report_run_info *ri)
{
    fprintf(f, "[ %gs ] Checkpoint report:\n", t);
    sysbench_sections(f, r, ri);
    fflush(f);
}

/* ---- machine-readable ---- */

static void json_str_or_null(struct sbuf *b, const char *s)
{
    if (s)
        sbuf_json(b, s);
    else
        sbuf_add(b, "null", 4);
}

void report_json(FILE *f, const struct level_result *r, const struct report_run_info *ri)
{
    double t = r->time_s > 0 ? r->time_s : 1e-9;
    uint64_t q = r->reads + r->writes + r->others;
    struct sbuf b = {0};
    sbuf_add(&b, "{\"dbscale_version\": ", 20);
    sbuf_json(&b, DBSCALE_VERSION);
    sbuf_add(&b, ", \"workload\": ", 14);
    json_str_or_null(&b, ri->workload);
    sbuf_add(&b, ", \"engine\": ", 12);
    json_str_or_null(&b, ri->engine);
    sbuf_add(&b, ", \"server_version\": ", 20);
    json_str_or_null(&b, ri->server_version);
    sbuf_printf(&b, ", \"options\": %s", ri->options_json ? ri->options_json : "{}");
    sbuf_printf(&b,
                ", \"threads\": %d, \"time_s\": %.6f, \"transactions\": %llu, \"tps\": %.4f, "
                "\"queries\": %llu, \"qps\": %.4f, \"reads\": %llu, \"writes\": %llu, "
                "\"others\": %llu, \"errors\": %llu, \"reconnects\": %llu, \"error_codes\": {",
                r->threads, r->time_s, (ull)r->txns, (double)r->txns / t, (ull)q, (double)q / t,
                (ull)r->reads, (ull)r->writes, (ull)r->others, (ull)r->errors, (ull)r->reconnects);
    for (int i = 0; i < r->ncodes; i++) {
        if (i)
            sbuf_add(&b, ", ", 2);
        sbuf_json(&b, r->codes[i].code);
        sbuf_printf(&b, ": %llu", (ull)r->codes[i].n);
    }
    sbuf_printf(&b,
                "}, \"latency_ms\": {\"min\": %.4f, \"avg\": %.4f, \"max\": %.4f, \"sum\": %.4f",
                ms(hist_min(r->lat)), hist_mean(r->lat) / 1e6, ms(hist_max(r->lat)),
                (double)atomic_load(&r->lat->sum) / 1e6);
    double shown[16];
    int ns = shown_pcts(ri, shown, 16);
    for (int i = 0; i < ns; i++)
        sbuf_printf(&b, ", \"p%g\": %.4f", shown[i], ms(hist_percentile(r->lat, shown[i])));
    sbuf_add(&b, "}", 1);
    if (ri->histogram) {
        /* --histogram: sysbench's rows, [ms, count] per non-empty bucket */
        sbuf_printf(&b, ", \"latency_histogram\": [");
        int first = 1;
        for (unsigned i = 0; i < HIST_BUCKETS; i++) {
            uint64_t c = atomic_load_explicit(&r->lat->b[i], memory_order_relaxed);
            if (!c)
                continue;
            sbuf_printf(&b, "%s[%.4f, %llu]", first ? "" : ", ", ms(hist_bucket_low(i)), (ull)c);
            first = 0;
        }
        sbuf_add(&b, "]", 1);
    }
    sbuf_printf(
        &b,
        ", \"client_cpu\": {\"user_s\": %.4f, \"sys_s\": %.4f, \"per_txn_us\": %.2f, "
        "\"csw_per_txn\": %.3f, \"loops\": %d}, \"fairness\": {\"events_avg\": %.4f, "
        "\"events_sd\": %.4f, \"time_avg\": %.4f, \"time_sd\": %.4f}, \"unfinished\": %llu, "
        "\"disturbed\": %s, \"disturbed_why\": ",
        r->client_user_s, r->client_sys_s, report_cpu_per_txn_us(r),
        r->txns ? r->client_csw / (double)r->txns : 0, r->loops, r->fair_events_avg,
        r->fair_events_sd, r->fair_time_avg, r->fair_time_sd, (ull)r->unfinished,
        r->disturbed ? "true" : "false");
    sbuf_json(&b, r->disturbed_why);
    sbuf_printf(&b, ", \"ramp_s\": %.3f", r->ramp_s);
    sbuf_add(&b, "}\n", 2);
    fwrite(b.s, 1, b.len, f);
    sbuf_free(&b);
}

static void csv_field(struct sbuf *b, const char *s)
{
    sbuf_add(b, ",", 1);
    csv_put(b, s ? s : "");
}

void report_csv(FILE *f, const struct level_result *r, const struct report_run_info *ri, int header)
{
    double t = r->time_s > 0 ? r->time_s : 1e-9;
    uint64_t q = r->reads + r->writes + r->others;
    double shown[16];
    int ns = shown_pcts(ri, shown, 16);
    struct sbuf b = {0};
    /* the columns dbscale always had keep their places; what was added
     * (more percentiles, the run's identity) comes after them */
    if (header) {
        sbuf_printf(&b, "threads,time_s,transactions,tps,queries,qps,reads,writes,others,errors,"
                        "reconnects,error_codes,lat_min_ms,lat_avg_ms,lat_p50_ms,lat_p95_ms,"
                        "lat_p99_ms,lat_max_ms,client_user_s,client_sys_s,client_cpu_per_txn_us");
        for (int i = 3; i < ns; i++)
            sbuf_printf(&b, ",lat_p%g_ms", shown[i]);
        sbuf_printf(&b, ",lat_sum_ms,dbscale_version,workload,engine,server_version,options\n");
    }
    char codes[512];
    report_codes(r, codes, sizeof codes);
    sbuf_printf(&b, "%d,%.6f,%llu,%.4f,%llu,%.4f,%llu,%llu,%llu,%llu,%llu", r->threads, r->time_s,
                (ull)r->txns, (double)r->txns / t, (ull)q, (double)q / t, (ull)r->reads,
                (ull)r->writes, (ull)r->others, (ull)r->errors, (ull)r->reconnects);
    csv_field(&b, codes);
    sbuf_printf(&b, ",%.4f,%.4f", ms(hist_min(r->lat)), hist_mean(r->lat) / 1e6);
    for (int i = 0; i < 3; i++) /* empty when --percentile=0 */
        if (ns)
            sbuf_printf(&b, ",%.4f", ms(hist_percentile(r->lat, shown[i])));
        else
            sbuf_add(&b, ",", 1);
    sbuf_printf(&b, ",%.4f,%.4f,%.4f,%.2f", ms(hist_max(r->lat)), r->client_user_s, r->client_sys_s,
                report_cpu_per_txn_us(r));
    for (int i = 3; i < ns; i++)
        sbuf_printf(&b, ",%.4f", ms(hist_percentile(r->lat, shown[i])));
    sbuf_printf(&b, ",%.4f", (double)atomic_load(&r->lat->sum) / 1e6);
    csv_field(&b, DBSCALE_VERSION);
    csv_field(&b, ri->workload);
    csv_field(&b, ri->engine);
    csv_field(&b, ri->server_version);
    csv_field(&b, ri->options_json ? ri->options_json : "{}");
    sbuf_add(&b, "\n", 1);
    fwrite(b.s, 1, b.len, f);
    sbuf_free(&b);
}

/* ---- --report-interval ---- */

int report_interval_path_is_csv(const char *path)
{
    size_t l = strlen(path);
    return l >= 4 && !strcasecmp(path + l - 4, ".csv");
}

int report_interval_open(struct report_interval_sink *k, const char *path, double interval_s,
                         char *err, size_t errlen)
{
    if (interval_s <= 0) {
        snprintf(err, errlen,
                 "--interval-output needs --report-interval=N (the periods it writes)");
        return -1;
    }
    if (!(k->machine = fopen(path, "w"))) {
        snprintf(err, errlen, "--interval-output: %s: %s", path, strerror(errno));
        return -1;
    }
    k->csv = report_interval_path_is_csv(path);
    return 0;
}

int report_interval_close(struct report_interval_sink *k, const char *path, char *err,
                          size_t errlen)
{
    if (!k->machine)
        return 0;
    int r = fclose(k->machine);
    k->machine = NULL;
    if (r != 0) {
        snprintf(err, errlen, "--interval-output: %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

void report_interval(const struct interval_stats *st, void *arg)
{
    struct report_interval_sink *k = arg;
    double pct = k->pct_off ? 0 : st->pct, lat = k->pct_off ? 0 : st->lat_ms;
    double qps = st->reads + st->writes + st->others;
    if (k->text) {
        fprintf(k->text,
                "[ %gs ] thds: %d tps: %.2f qps: %.2f (r/w/o: %.2f/%.2f/%.2f) lat (ms,%g%%): %.2f "
                "err/s: %.2f reconn/s: %.2f\n",
                st->t, st->threads, st->tps, qps, st->reads, st->writes, st->others, pct, lat,
                st->errors, st->reconnects);
        if (k->rate > 0 && st->queue_known)
            fprintf(k->text, "[ %gs ] queue length: %llu, concurrency: %llu\n", st->t,
                    (ull)st->queue_length, (ull)st->concurrency);
        fflush(k->text);
    }
    if (k->machine) {
        if (k->csv) {
            if (!k->rows)
                fprintf(k->machine, "t_s,dt_s,threads,tps,qps,reads_ps,writes_ps,others_ps,"
                                    "lat_pct,lat_ms,errors_ps,reconnects_ps,queue_length,"
                                    "concurrency\n");
            fprintf(k->machine, "%g,%.4f,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%g,%.4f,%.4f,%.4f,", st->t,
                    st->dt, st->threads, st->tps, qps, st->reads, st->writes, st->others, pct, lat,
                    st->errors, st->reconnects);
            if (st->queue_known)
                fprintf(k->machine, "%llu,%llu\n", (ull)st->queue_length, (ull)st->concurrency);
            else
                fprintf(k->machine, ",\n");
        } else {
            fprintf(k->machine,
                    "{\"t_s\": %g, \"dt_s\": %.4f, \"threads\": %d, \"tps\": %.4f, \"qps\": %.4f, "
                    "\"reads_ps\": %.4f, \"writes_ps\": %.4f, \"others_ps\": %.4f, \"lat_pct\": "
                    "%g, \"lat_ms\": %.4f, \"errors_ps\": %.4f, \"reconnects_ps\": %.4f",
                    st->t, st->dt, st->threads, st->tps, qps, st->reads, st->writes, st->others,
                    pct, lat, st->errors, st->reconnects);
            if (st->queue_known)
                fprintf(k->machine, ", \"queue_length\": %llu, \"concurrency\": %llu",
                        (ull)st->queue_length, (ull)st->concurrency);
            fprintf(k->machine, "}\n");
        }
        k->rows++;
        fflush(k->machine);
    }
}
