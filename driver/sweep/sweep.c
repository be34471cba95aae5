/*
 * sweep.c - threads x CPU count x repeats against one server, results kept.
 *
 * The plan is a flat list of levels (variant, CPUs, threads, repeat) in the
 * chosen order; interleaved order alternates CPU counts and thread levels on
 * every repeat, so slow drift (caches, vacuum, purge, heat) lands on all
 * curves alike instead of bending one. Connections are opened once for the
 * largest level and reused; before a level counts, the server's CPU mask is
 * applied again and read back from /proc. After every level the whole
 * results.csv is rewritten atomically, so an interrupt or a crash loses at
 * most the level in flight. Whatever the sweep changed (CPU masks, offline
 * CPUs, a server it started) is put back on every way out.
 */
#include "sweep.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "baseline.h"
#include "cpuset.h"
#include "oltp.h"
#include "redact.h"
#include "report.h"
#include "server.h"
#include "sysinfo.h"
#include "util.h"
#include "verbs.h"

#define MAX_LEVELS_T 64
#define MAX_CPUS_K   64
#define MAX_PIDS     4096

/* clang-format off */
static const struct optdef sweep_extra[] = {
    {"workload", OPT_STR, NULL, "workload (or give it as the first word)"},
    {"repeats", OPT_INT, "3", "measurements per (CPU count, threads) point", NULL, 1, 1000},
    {"order", OPT_CHOICE, "sequential", "level order; interleaved alternates CPU counts and thread levels on every repeat", "sequential|interleaved"},
    {"cpus", OPT_STR, "all", "CPU counts the server is held to, e.g. 1,2,4,all (clipped to the machine)"},
    {"cpu-method", OPT_CHOICE, "affinity", "how the server is held to k CPUs", "affinity|cpuset|hotplug"},
    {"variant", OPT_STR, NULL, "label for these results (default: up or smp-kN from the kernel)"},
    {"server", OPT_CHOICE, "managed", "managed: a throwaway server started here; external: the one the connection options name", "managed|external"},
    {"server-pid", OPT_STR, "auto", "external server's process id, or auto (the process listening on the port)"},
    {"server-conf", OPT_LIST, NULL, "managed server: extra config line k=v (may be repeated)"},
    {"prepare", OPT_BOOL, NULL, "create and load the tables first (default: on for managed, off for external)"},
    {"out", OPT_STR, NULL, "results directory (default results/ENGINE-WORKLOAD-TIMESTAMP)"},
    {"baseline", OPT_STR, NULL, "kernel baseline at each CPU count: micro tests and 'fs' (file create/remove); 'default' = getppid1,open1,open3,pipe1,page_fault1,lock2,pthread_mutex1,fs"},
};
/* clang-format on */

void sweep_variant(char *buf, size_t len, const char *user_label, int up, int cpus)
{
    if (user_label && *user_label)
        snprintf(buf, len, "%s", user_label);
    else if (up)
        snprintf(buf, len, "up");
    else
        snprintf(buf, len, "smp-k%d", cpus);
}

struct level {
    int k; /* index into the CPU-count list */
    int threads;
    int repeat;
};

struct sweep {
    struct opts o;
    struct oltp_setup s;
    struct sysinfo_facts facts;
    struct server srv;
    int managed, server_up;
    pid_t ext_pid;
    int online[MAX_CPUS_K], nonline;
    int kcpus[MAX_CPUS_K], nk;                   /* CPU counts, ascending as given */
    long long threads[MAX_CPUS_K][MAX_LEVELS_T]; /* per CPU count ("4k" = 4 x k) */
    int nthreads[MAX_CPUS_K], repeats;
    long long maxthreads;
    struct level *plan;
    int nplan;
    struct cpuset_ctl *cpu;
    int cpu_changed;
    struct pool *pool;
    struct result_row *rows;
    int nrows;
    char out[1024];
    char started[32];
    char server_version[64];
    char settings[1024];
    const char *workload;
};

static volatile sig_atomic_t got_signal;
static struct pool *volatile sig_pool;

static void on_signal(int sig)
{
    got_signal = sig;
    if (sig_pool)
        pool_stop(sig_pool);
}

static void iso_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int write_meta(struct sweep *w, const char *ended)
{
    struct sbuf b = {0};
    const struct sysinfo_facts *f = &w->facts;
    sbuf_printf(&b, "{\n  \"dbscale_version\": \"%s\",\n  \"git_commit\": \"%s\",\n",
                DBSCALE_VERSION, DBSCALE_GIT);
    sbuf_printf(&b, "  \"engine\": \"%s\",\n  \"workload\": ", w->s.ops->name);
    sbuf_json(&b, w->workload);
    sbuf_printf(&b, ",\n  \"server\": \"%s\",\n  \"server_version\": ",
                w->managed ? "managed" : "external");
    sbuf_json(&b, w->server_version);
    sbuf_printf(&b, ",\n  \"server_settings\": {%s},\n", w->settings);
    sbuf_printf(&b, "  \"cpu_method\": \"%s\",\n  \"host\": ", opts_str(&w->o, "cpu-method"));
    sbuf_json(&b, f->hostname);
    sbuf_printf(&b, ",\n  \"kernel\": ");
    sbuf_json(&b, f->kernel);
    sbuf_printf(&b, ",\n  \"machine\": ");
    sbuf_json(&b, f->machine);
    sbuf_printf(&b, ",\n  \"cmdline\": ");
    sbuf_json(&b, f->cmdline);
    sbuf_printf(&b, ",\n  \"cpu_model\": ");
    sbuf_json(&b, f->cpu_model);
    sbuf_printf(&b,
                ",\n  \"cpus_online\": \"%s\",\n  \"cpus_possible\": \"%s\",\n  \"uniprocessor\": "
                "%s,\n  \"mem_kb\": %lld,\n",
                f->online, f->possible, f->up ? "true" : "false", f->mem_kb);
    sbuf_printf(&b, "  \"started\": \"%s\",\n  \"ended\": \"%s\",\n  \"levels_planned\": %d,\n",
                w->started, ended ? ended : "", w->nplan);
    sbuf_printf(&b, "  \"levels_done\": %d,\n  \"options\": ", w->nrows);
    redact_opts_json(&w->o, &b); /* no conninfo password in meta.json */
    sbuf_printf(&b, "\n}\n");
    char path[1100];
    snprintf(path, sizeof path, "%s/meta.json", w->out);
    int rc = write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    return rc;
}

/* ---- parsing the plan ---- */

/* Expand "Nk" tokens (N times the CPU count k) in a thread list. */
static void expand_k(const char *in, int k, char *out, size_t len)
{
    size_t o = 0;
    for (const char *p = in; *p && o + 24 < len;) {
        if (*p >= '0' && *p <= '9') {
            char *end;
            long long v = strtoll(p, &end, 10);
            if (*end == 'k') {
                o += (size_t)snprintf(out + o, len - o, "%lld", v * k);
                p = end + 1;
            } else {
                o += (size_t)snprintf(out + o, len - o, "%.*s", (int)(end - p), p);
                p = end;
            }
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
}

static int parse_plan(struct sweep *w, char *err, size_t errlen)
{
    const char *tl = opts_str(&w->o, "threads");
    w->nonline = cpuset_online(w->online, MAX_CPUS_K);
    if (w->nonline < 1) {
        snprintf(err, errlen, "cannot read the online CPUs");
        return -1;
    }
    /* --cpus: counts, "all"; values above the machine are dropped (with a note) */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", opts_str(&w->o, "cpus"));
    w->nk = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        long long v;
        if (!strcmp(tok, "all"))
            v = w->nonline;
        else if (parse_int(tok, &v) < 0 || v < 1) {
            snprintf(err, errlen, "--cpus: '%s' is not a CPU count (1, 2, ... or all)", tok);
            return -1;
        }
        if (v > w->nonline) {
            fprintf(stderr, "dbscale sweep: --cpus: %lld is more than the %d online; skipped\n", v,
                    w->nonline);
            continue;
        }
        int dup = 0;
        for (int i = 0; i < w->nk; i++)
            dup |= w->kcpus[i] == v;
        if (!dup && w->nk < MAX_CPUS_K)
            w->kcpus[w->nk++] = (int)v;
    }
    if (w->nk == 0) {
        snprintf(err, errlen, "--cpus=%s leaves no CPU count to run", opts_str(&w->o, "cpus"));
        return -1;
    }
    for (int k = 0; k < w->nk; k++) {
        char ex[512];
        expand_k(tl, w->kcpus[k], ex, sizeof ex);
        int n = parse_int_list(ex, w->threads[k], MAX_LEVELS_T);
        if (n <= 0) {
            snprintf(err, errlen,
                     "--threads=%s: expected a list like 1,2,4,8 or 1-64 or 1-256:x2 or 1-4k:x2 "
                     "(k = the CPU count; at most %d levels)",
                     tl, MAX_LEVELS_T);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            if (w->threads[k][i] < 1 || w->threads[k][i] > 100000) {
                snprintf(err, errlen, "--threads: %lld is not a thread count (1..100000)",
                         w->threads[k][i]);
                return -1;
            }
            if (w->threads[k][i] > w->maxthreads)
                w->maxthreads = w->threads[k][i];
        }
        w->nthreads[k] = n;
    }
    w->repeats = (int)opts_int(&w->o, "repeats");
    int total = 0;
    for (int k = 0; k < w->nk; k++)
        total += w->nthreads[k] * w->repeats;
    w->plan = xcalloc((size_t)total, sizeof *w->plan);
    int n = 0;
    if (strcmp(opts_str(&w->o, "order"), "interleaved") != 0) {
        for (int k = 0; k < w->nk; k++)
            for (int t = 0; t < w->nthreads[k]; t++)
                for (int r = 0; r < w->repeats; r++)
                    w->plan[n++] = (struct level){k, (int)w->threads[k][t], r + 1};
    } else {
        /* each repeat walks thread levels and CPU counts, reversing direction
         * on odd repeats so no point always comes first or last */
        int maxn = 0;
        for (int k = 0; k < w->nk; k++)
            maxn = w->nthreads[k] > maxn ? w->nthreads[k] : maxn;
        for (int r = 0; r < w->repeats; r++)
            for (int t0 = 0; t0 < maxn; t0++)
                for (int k0 = 0; k0 < w->nk; k0++) {
                    int k = r % 2 ? w->nk - 1 - k0 : k0;
                    int t = r % 2 ? maxn - 1 - t0 : t0;
                    if (t < w->nthreads[k])
                        w->plan[n++] = (struct level){k, (int)w->threads[k][t], r + 1};
                }
    }
    w->nplan = n;
    return 0;
}

/* ---- the server ---- */

static int server_family(struct sweep *w, pid_t *pids, int max)
{
    if (w->managed)
        return server_pids(&w->srv, pids, max);
    return w->ext_pid > 0 ? sysinfo_family(w->ext_pid, pids, max) : 0;
}

static void read_settings(struct sweep *w)
{
    struct db_error e = {0};
    struct db_conn *c = w->s.ops->connect(&w->s.targets[0], &e);
    if (!c)
        return;
    snprintf(w->server_version, sizeof w->server_version, "%s", w->s.ops->server_version(c));
    static const char *pg[][2] = {{"shared_buffers", "SHOW shared_buffers"},
                                  {"max_connections", "SHOW max_connections"},
                                  {"fsync", "SHOW fsync"},
                                  {"synchronous_commit", "SHOW synchronous_commit"},
                                  {"wal_level", "SHOW wal_level"}};
    static const char *my[][2] = {
        {"innodb_buffer_pool_size", "SELECT @@innodb_buffer_pool_size"},
        {"max_connections", "SELECT @@max_connections"},
        {"innodb_flush_log_at_trx_commit", "SELECT @@innodb_flush_log_at_trx_commit"},
        {"sync_binlog", "SELECT @@sync_binlog"},
        {"log_bin", "SELECT @@log_bin"}};
    int ispg = w->s.ops == &db_pgsql_ops;
    struct sbuf b = {0};
    for (int i = 0; i < 5; i++) {
        char *v = w->s.ops->query_value(c, ispg ? pg[i][1] : my[i][1], &e);
        sbuf_printf(&b, "%s\"%s\": ", i ? ", " : "", ispg ? pg[i][0] : my[i][0]);
        sbuf_json(&b, v ? v : "");
        free(v);
    }
    snprintf(w->settings, sizeof w->settings, "%s", b.s ? b.s : "");
    sbuf_free(&b);
    w->s.ops->close(c);
}

static int start_managed(struct sweep *w, char *err, size_t errlen)
{
    enum server_engine e = w->s.ops == &db_pgsql_ops ? SERVER_PGSQL : SERVER_MYSQL;
    long long maxt = w->maxthreads;
    struct sbuf conf = {0};
    /* room for every client plus a few for the sweep's own admin queries */
    sbuf_printf(&conf, "max_connections=%lld\n", maxt + 20);
    const char *extra = opts_str(&w->o, "server-conf");
    for (const char *p = extra; p && *p;) {
        const char *comma = strchr(p, ',');
        size_t l = comma ? (size_t)(comma - p) : strlen(p);
        sbuf_add(&conf, p, l);
        sbuf_add(&conf, "\n", 1);
        p += l + (comma ? 1 : 0);
    }
    fprintf(stderr, "dbscale sweep: starting a throwaway %s server...\n", server_engine_name(e));
    int rc = server_start(&w->srv, e, NULL, 0, NULL, conf.s, err, errlen);
    sbuf_free(&conf);
    if (rc < 0)
        return -1;
    if (server_guard(&w->srv, err, errlen) < 0) { /* gone with us, even on SIGKILL */
        char e2[256];
        server_stop(&w->srv, e2, sizeof e2);
        return -1;
    }
    w->server_up = 1;
    struct db_target t;
    server_target(&w->srv, &t);
    t.ps = w->s.targets[0].ps;
    w->s.targets[0] = t; /* the throwaway server replaces the connection options */
    w->s.ntargets = 1;
    w->s.wcfg.targets = w->s.targets;
    w->s.wcfg.ntargets = 1;
    return 0;
}

/* ---- CPUs ---- */

/* Hold the server to the first k online CPUs, read it back, place the client. */
static int hold_server(struct sweep *w, int k, char *srv_list, size_t sl, char *cli_list, size_t cl,
                       int *shared, char *err, size_t errlen)
{
    pid_t pids[MAX_PIDS];
    cpuset_format(w->online, k, srv_list, sl);
    const char *cc = opts_str(&w->o, "client-cpus");
    *shared = 1;
    cli_list[0] = '\0';
    if (cc && !strcmp(cc, "same")) {
        snprintf(cli_list, cl, "%s", srv_list);
    } else if (cc && !strcmp(cc, "rest")) {
        if (k < w->nonline) {
            cpuset_format(w->online + k, w->nonline - k, cli_list, cl);
            *shared = 0;
        } else {
            snprintf(cli_list, cl, "%s", srv_list); /* nothing left: share */
        }
    } else if (cc && *cc) {
        snprintf(cli_list, cl, "%s", cc);
        int ids[MAX_CPUS_K], n = cpuset_parse(cc, ids, MAX_CPUS_K);
        *shared = 0;
        for (int i = 0; i < n; i++)
            for (int j = 0; j < k; j++)
                *shared |= ids[i] == w->online[j];
    }
    pool_set_client_cpus(w->pool, cli_list[0] ? cli_list : NULL);
    if (!cli_list[0])
        snprintf(cli_list, cl, "%s", w->facts.online);

    int all = k == w->nonline;
    if (all && !w->cpu_changed && !w->cpu)
        return 0; /* nothing was ever restricted: the server has every CPU */
    if (!w->cpu) {
        int m = cpuset_method_parse(opts_str(&w->o, "cpu-method"));
        w->cpu = cpuset_open((enum cpu_method)m, err, errlen);
        if (!w->cpu)
            return -1;
    }
    w->cpu_changed = 1;
    int np = server_family(w, pids, MAX_PIDS);
    if (np <= 0) {
        snprintf(err, errlen, "cannot find the server's processes to hold them to %d CPUs", k);
        return -1;
    }
    /* apply, then read back; a backend that appeared in between gets a
     * second pass */
    for (int attempt = 0; attempt < 3; attempt++) {
        if (cpuset_apply(w->cpu, pids, np, w->online, k, err, errlen) < 0)
            return -1;
        np = server_family(w, pids, MAX_PIDS);
        if (cpuset_verify(w->cpu, pids, np, w->online, k, err, errlen) == 0)
            return 0;
    }
    return -1;
}

static void restore_cpus(struct sweep *w)
{
    if (!w->cpu_changed && !w->cpu)
        return;
    pid_t pids[MAX_PIDS];
    int np = server_family(w, pids, MAX_PIDS);
    cpuset_close(w->cpu, pids, np > 0 ? np : 0);
    w->cpu = NULL;
    w->cpu_changed = 0;
}

/* ---- one level ---- */

static void fill_row(struct sweep *w, struct result_row *r, const struct level *lv,
                     const char *variant, const struct level_result *res, double srv_cpu,
                     double idle, const char *srv_list, const char *cli_list, int shared)
{
    memset(r, 0, sizeof *r);
    snprintf(r->engine, sizeof r->engine, "%s", w->s.ops->name);
    snprintf(r->workload, sizeof r->workload, "%s", w->workload);
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    r->cpus = w->kcpus[lv->k];
    r->threads = lv->threads;
    r->repeat = lv->repeat;
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
    /* a level during which a connection was lost did not measure the server
     * it meant to: kept, but marked */
    r->disturbed = res->reconnects > 0 || res->lost > 0 || res->interrupted;
}

static void progress(struct sweep *w, int i, const struct level *lv, const char *variant,
                     double tps, double per_level_s)
{
    int left = w->nplan - i - 1;
    double eta = left * per_level_s;
    int tty = isatty(2);
    fprintf(stderr, "%s[%d/%d] %s cpus=%d threads=%d repeat %d/%d: %.1f tps  (ETA %dm%02ds)%s",
            tty ? "\r\033[K" : "", i + 1, w->nplan, variant, w->kcpus[lv->k], lv->threads,
            lv->repeat, w->repeats, tps, (int)eta / 60, (int)eta % 60, tty ? "" : "\n");
    fflush(stderr);
}

static int run_sweep(struct sweep *w, char *err, size_t errlen)
{
    int last_k = -1;
    int baseline_done[MAX_CPUS_K] = {0};
    char srv_list[256] = "", cli_list[256] = "";
    int shared = 1;
    double per_level = opts_num(&w->o, "time") + opts_num(&w->o, "warmup-time") + 0.3;
    w->rows = xcalloc((size_t)w->nplan, sizeof *w->rows);
    for (int i = 0; i < w->nplan && !got_signal; i++) {
        const struct level *lv = &w->plan[i];
        char variant[64];
        sweep_variant(variant, sizeof variant, opts_str(&w->o, "variant"), w->facts.up,
                      w->kcpus[lv->k]);
        if (lv->k != last_k) {
            if (hold_server(w, w->kcpus[lv->k], srv_list, sizeof srv_list, cli_list,
                            sizeof cli_list, &shared, err, errlen) < 0)
                return -1;
            last_k = lv->k;
            if (!baseline_done[lv->k]) {
                baseline_done[lv->k] = 1;
                if (baseline_run(opts_str(&w->o, "baseline"), w->online, w->kcpus[lv->k], w->out,
                                 variant, &got_signal, err, errlen) < 0)
                    return -1;
            }
        }
        pid_t pids[MAX_PIDS];
        int np = server_family(w, pids, MAX_PIDS);
        double cpu0 = sysinfo_proc_cpu(pids, np);
        struct sysinfo_cpu_times t0, t1;
        sysinfo_cpu_times(&t0);
        struct level_result res;
        int rc = pool_run(w->pool, lv->threads, &res);
        sysinfo_cpu_times(&t1);
        np = server_family(w, pids, MAX_PIDS);
        double cpu1 = sysinfo_proc_cpu(pids, np);
        if (rc < 0) {
            snprintf(err, errlen, "level %d (cpus=%d threads=%d): %s", i + 1, w->kcpus[lv->k],
                     lv->threads, res.fatal_msg);
            level_result_free(&res);
            return -1;
        }
        if (rc == 1 || got_signal) { /* interrupted mid-level: not a measurement */
            level_result_free(&res);
            break;
        }
        fill_row(w, &w->rows[w->nrows++], lv, variant, &res, cpu1 > cpu0 ? cpu1 - cpu0 : 0,
                 sysinfo_idle_pct(&t0, &t1), srv_list, cli_list, shared);
        int wr = results_write_csv(w->out, w->rows, (size_t)w->nrows);
        if (wr != 0) {
            snprintf(err, errlen, "cannot write %s/results.csv: %s", w->out,
                     strerror(wr < 0 ? -wr : EIO));
            level_result_free(&res);
            return -1;
        }
        progress(w, i, lv, variant, w->rows[w->nrows - 1].tps, per_level);
        level_result_free(&res);
    }
    if (isatty(2))
        fputc('\n', stderr);
    return 0;
}

static void usage(const struct opts *o, FILE *f)
{
    fprintf(f, "usage: dbscale sweep [WORKLOAD] [options]\n"
               "   or: dbscale sweep --config configs/NAME.ini [options]\n\n"
               "Runs WORKLOAD at every thread count (--threads=1,2,4,8 | 1-64 | 1-256:x2) with\n"
               "the server held to each CPU count (--cpus=1,2,4,all), --repeats times, and\n"
               "writes results.csv + meta.json into --out after every level.\n\noptions:\n");
    opts_help(o, f);
}

int sweep_main(int argc, char **argv)
{
    struct sweep w;
    memset(&w, 0, sizeof w);
    /* the OLTP vocabulary, with --threads as a list, plus the sweep's own */
    size_t n;
    struct optdef *defs =
        oltp_optdefs_with(sweep_extra, sizeof sweep_extra / sizeof sweep_extra[0], &n);
    for (size_t i = 0; i < oltp_noptdefs; i++) {
        if (!strcmp(defs[i].name, "threads")) {
            defs[i].def = "1,2,4,8";
            defs[i].help = "client thread counts: 1,2,4,8 | 1-64 | 1-256:x2";
        } else if (!strcmp(defs[i].name, "db-driver")) {
            defs[i].def = "pgsql";
        }
    }
    opts_init(&w.o, defs, n);
    char err[1024], *pos[2];
    int npos = 0, rc = 0;
    int pr = opts_parse_argv(&w.o, argc, argv, 1, pos, 2, &npos, err, sizeof err);
    if (pr == 1) {
        usage(&w.o, stdout);
        goto done;
    }
    if (pr < 0) {
        fprintf(stderr, "dbscale sweep: %s\n(see: dbscale sweep --help)\n", err);
        rc = EXIT_USAGE;
        goto done;
    }
    char wname[128];
    const char *wl = npos ? pos[0] : opts_str(&w.o, "workload");
    if (!wl) {
        fprintf(stderr, "dbscale sweep: which workload? give it first or as workload= in the "
                        "config\n(see: dbscale sweep --help)\n");
        rc = EXIT_USAGE;
        goto done;
    }
    w.workload = oltp_workload_name(wl, wname, sizeof wname);
    if (oltp_setup(&w.s, &w.o, w.workload, err, sizeof err) < 0 ||
        parse_plan(&w, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale sweep: %s\n(see: dbscale sweep --help)\n", err);
        rc = EXIT_USAGE;
        goto done;
    }
    if (baseline_check(opts_str(&w.o, "baseline"), err, sizeof err) < 0) {
        fprintf(stderr, "dbscale sweep: %s\n", err);
        rc = EXIT_USAGE;
        goto done;
    }
    if (cpuset_method_parse(opts_str(&w.o, "cpu-method")) < 0) {
        fprintf(stderr, "dbscale sweep: --cpu-method: unknown method\n");
        rc = EXIT_USAGE;
        goto done;
    }
    sysinfo_read(&w.facts);
    iso_now(w.started, sizeof w.started);
    w.managed = !strcmp(opts_str(&w.o, "server"), "managed");
    const char *spid = opts_str(&w.o, "server-pid"); /* re-pinned later: must be the server */
    if (!w.managed && spid && strcmp(spid, "auto") != 0 &&
        server_check_pid(spid, w.s.targets[0].port, &w.ext_pid, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale sweep: --server-pid: %s\n", err);
        rc = EXIT_USAGE;
        goto done;
    }

    /* results directory first: a typo'd path fails before any server starts */
    if (opts_str(&w.o, "out"))
        snprintf(w.out, sizeof w.out, "%s", opts_str(&w.o, "out"));
    else {
        char ts[32];
        time_t t = time(NULL);
        struct tm tm;
        localtime_r(&t, &tm);
        strftime(ts, sizeof ts, "%Y%m%d-%H%M%S", &tm);
        snprintf(w.out, sizeof w.out, "results/%s-%s-%s", w.s.ops->name, w.workload, ts);
    }
    int mk = mkdir_p(w.out, 0755);
    if (mk < 0) {
        fprintf(stderr, "dbscale sweep: cannot create results directory %s: %s\n", w.out,
                strerror(-mk));
        rc = EXIT_RUNTIME;
        goto done;
    }

    struct sigaction sa = {0};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);

    if (w.managed) {
        if (start_managed(&w, err, sizeof err) < 0) {
            fprintf(stderr, "dbscale sweep: %s\n", err);
            rc = EXIT_RUNTIME;
            goto done;
        }
    } else {
        const char *sp = opts_str(&w.o, "server-pid");
        int port = w.s.targets[0].port;
        if (sp && strcmp(sp, "auto") != 0)
            w.ext_pid = (pid_t)atoi(sp);
        else if (port > 0)
            w.ext_pid = sysinfo_pid_by_port(port);
        int restricted = w.kcpus[0] != w.nonline || w.nk > 1;
        if (w.ext_pid <= 0 && restricted) {
            fprintf(stderr,
                    "dbscale sweep: cannot find the process listening on port %d; give "
                    "--server-pid=PID to hold the server to fewer CPUs\n",
                    port);
            rc = EXIT_USAGE;
            goto done;
        }
    }
    int want_prepare = opts_isset(&w.o, "prepare") ? opts_bool(&w.o, "prepare") : w.managed;
    long long maxt = w.maxthreads;
    if (oltp_check_connections(&w.s, maxt, err, sizeof err) < 0) {
        fprintf(stderr, "dbscale sweep: %s%s\n", err,
                w.managed ? " (--server-conf max_connections=N raises it here)" : "");
        rc = EXIT_USAGE;
        goto cleanup;
    }
    if (want_prepare && !got_signal) {
        fprintf(stderr, "dbscale sweep: preparing %d table(s) of %lld rows...\n", w.s.wl.cfg.tables,
                (long long)w.s.wl.cfg.table_size);
        if (oltp_prepare(&w.s, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "dbscale sweep: prepare: %s\n", err);
            rc = EXIT_RUNTIME;
            goto cleanup;
        }
    }
    read_settings(&w);
    write_meta(&w, NULL);
    if (!got_signal) {
        w.pool = pool_open(&w.s.wcfg, (int)maxt, err, sizeof err);
        if (!w.pool) {
            fprintf(stderr, "dbscale sweep: %s\n", err);
            rc = EXIT_RUNTIME;
            goto cleanup;
        }
        sig_pool = w.pool;
        fprintf(stderr, "dbscale sweep: %d levels (%d CPU count(s), %d repeat(s)), results in %s\n",
                w.nplan, w.nk, w.repeats, w.out);
        if (run_sweep(&w, err, sizeof err) < 0) {
            fprintf(stderr, "\ndbscale sweep: stopped: %s\n", err);
            rc = EXIT_RUNTIME;
        }
        sig_pool = NULL;
    }
cleanup:
    if (w.pool)
        pool_close(w.pool);
    restore_cpus(&w);
    {
        char ended[32];
        iso_now(ended, sizeof ended);
        write_meta(&w, ended);
    }
    if (w.nrows > 0) {
        report_sweep_summary(stdout, w.rows, (size_t)w.nrows);
        printf("\nresults: %s/results.csv (%d level%s), %s/meta.json\n", w.out, w.nrows,
               w.nrows == 1 ? "" : "s", w.out);
    }
    if (w.managed && w.server_up) {
        char e2[512];
        if (server_stop(&w.srv, e2, sizeof e2) < 0)
            fprintf(stderr, "dbscale sweep: stopping the server: %s\n", e2);
    }
    if (got_signal) {
        fprintf(stderr, "dbscale sweep: interrupted; %d finished level(s) kept in %s\n", w.nrows,
                w.out);
        rc = 128 + got_signal;
    }
done:
    free(w.rows);
    free(w.plan);
    oltp_setup_free(&w.s);
    opts_free(&w.o);
    free(defs);
    return rc;
}
