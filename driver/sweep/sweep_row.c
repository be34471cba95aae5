/*
 * sweep_row.c - a measured level's figures as results.csv rows: the level's
 * own row and, under dbscale-mpi, one row per rank. The one idea: every
 * figure of a row is derived here from the level_result, so the aggregate
 * and the per-rank rows cannot be computed two ways. Writes no file.
 */
#include <stdio.h>
#include <string.h>

#include "machine/kernelinfo.h"
#include "stats/hist.h"
#include "report/report_run.h"
#include "sweep/sweep.h"
#include "core/util.h"

void sweep_fill_row(struct sweep *w, struct result_row *r, const struct sweep_level *lv,
                    const char *variant, const struct level_result *res, double srv_cpu,
                    double idle, const char *srv_list, const char *cli_list, int shared)
{
    memset(r, 0, sizeof *r);
    snprintf(r->engine, sizeof r->engine, "%s", w->s.ops->name);
    snprintf(r->workload, sizeof r->workload, "%s", w->workload);
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    r->cpus = w->plan.kcpus[lv->k];
    r->threads = lv->threads;
    r->repeat = lv->repeat + w->repeat_base;
    snprintf(r->boot, sizeof r->boot, "%s", kernelinfo_boot_id());
    double t = res->time_s > 0 ? res->time_s : 1e-9;
    r->time_s = res->time_s;
    r->tps = (double)res->txns / t;
    r->qps = (double)(res->reads + res->writes + res->others) / t;
    r->qps_read = (double)res->reads / t;
    r->qps_write = (double)res->writes / t;
    r->qps_other = (double)res->others / t;
    r->lat_min_ms = (double)hist_min(res->lat) / 1e6;
    r->lat_avg_ms = hist_mean(res->lat) / 1e6;
    r->lat_p50_ms = (double)hist_percentile(res->lat, 50) / 1e6;
    r->lat_p95_ms = (double)hist_percentile(res->lat, 95) / 1e6;
    r->lat_p99_ms = (double)hist_percentile(res->lat, 99) / 1e6;
    r->lat_max_ms = (double)hist_max(res->lat) / 1e6;
    r->errors = (long long)res->errors;
    r->reconnects = (long long)res->reconnects;
    report_codes(res, r->error_codes, sizeof r->error_codes);
    r->client_cpu_s = res->client_user_s + res->client_sys_s;
    r->client_cpu_per_txn_us = report_cpu_per_txn_us(res);
    r->server_cpu_s = srv_cpu;
    r->idle_pct = idle;
    snprintf(r->client_cpus, sizeof r->client_cpus, "%s", cli_list);
    snprintf(r->server_cpus, sizeof r->server_cpus, "%s", srv_list);
    r->shared_cpus = shared;
    r->connections = res->threads;
    /* a level during which a connection was lost, the client stalled or
     * nothing completed did not measure the server it meant to: kept, but
     * marked, with the reason (the worker's own when it gives one) */
    struct sbuf why = {0};
    if (res->disturbed && res->disturbed_why[0])
        sbuf_printf(&why, "%s", res->disturbed_why);
    else {
        if (res->reconnects)
            sbuf_printf(&why, "%s%llu reconnects", why.len ? "; " : "",
                        (unsigned long long)res->reconnects);
        if (res->lost)
            sbuf_printf(&why, "%s%llu lost", why.len ? "; " : "", (unsigned long long)res->lost);
        if (res->unfinished)
            sbuf_printf(&why, "%s%llu unfinished", why.len ? "; " : "",
                        (unsigned long long)res->unfinished);
        if (res->interrupted)
            sbuf_printf(&why, "%sinterrupted", why.len ? "; " : "");
    }
    if (res->txns == 0)
        sbuf_printf(&why, "%sno transaction completed", why.len ? "; " : "");
    r->disturbed = res->disturbed || why.len > 0;
    snprintf(r->disturbed_why, sizeof r->disturbed_why, "%s", why.s ? why.s : "");
    sbuf_free(&why);
}

/* dbscale-mpi: each rank's part of the level just measured, as its rows */
void sweep_add_rank_rows(struct sweep *w, const struct sweep_level *lv, const char *variant,
                         struct sweep_rank_fig *each, const char *srv_list, const char *cli_list,
                         int shared)
{
    int n = w->share->nranks;
    w->rank_rows = xrealloc(w->rank_rows, (size_t)(w->nrank_rows + n) * sizeof *w->rank_rows);
    for (int k = 0; k < n; k++) {
        struct result_row *r = &w->rank_rows[w->nrank_rows++];
        sweep_fill_row(w, r, lv, variant, &each[k].res, 0, 0, srv_list, cli_list, shared);
        snprintf(r->rank, sizeof r->rank, "%d", each[k].rank);
        snprintf(r->host, sizeof r->host, "%s", each[k].host);
        r->connections = each[k].connections;
        r->boot[0] = '\0'; /* the rank's host's boot is not known here */
    }
}
