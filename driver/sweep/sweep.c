/*
 * sweep.c - the run loop: threads x CPU count x repeats against one server,
 * results kept.
 *
 * Connections are opened once for the largest level and reused; before a
 * level counts, the server's CPU mask is applied again and read back from
 * /proc. After every level the whole results.csv is rewritten atomically, so
 * an interrupt or a crash loses at most the level in flight. Whatever the
 * sweep changed (CPU masks, offline CPUs, a server it started) is put back
 * by the verb on every way out. This room never prints a report or decides
 * an exit code: it returns errors and hands each finished level to a callback.
 */
#include "sweep/sweep.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "machine/placement.h"
#include "sweep/baseline.h"
#include "core/util.h"

#define MAX_PIDS 4096

/* ---- the server ---- */

static int server_family(struct sweep *w, pid_t *pids, int max)
{
    if (w->managed)
        return server_pids(&w->srv, pids, max);
    return w->ext_pid > 0 ? sysinfo_family(w->ext_pid, pids, max) : 0;
}

int sweep_server_family(struct sweep *w, pid_t *pids, int max)
{
    return server_family(w, pids, max);
}

void sweep_read_settings(struct sweep *w)
{
    struct db_error e = {0};
    struct db_conn *c = w->s.ops->connect(&w->s.targets[0], &e);
    if (!c)
        return;
    snprintf(w->server_version, sizeof w->server_version, "%s", w->s.ops->server_version(c));
    /* which settings, and how to read them, is the engine's knowledge */
    const struct db_ops *ops = w->s.ops;
    struct sbuf b = {0};
    for (int i = 0; i < ops->nsettings; i++) {
        char *v = ops->query_value(c, ops->settings[i][1], &e);
        sbuf_printf(&b, "%s\"%s\": ", i ? ", " : "", ops->settings[i][0]);
        sbuf_json(&b, v ? v : "");
        free(v);
    }
    snprintf(w->settings, sizeof w->settings, "%s", b.s ? b.s : "");
    sbuf_free(&b);
    w->s.ops->close(c);
}

int sweep_start_managed(struct sweep *w, char *err, size_t errlen)
{
    enum server_engine e = (enum server_engine)server_engine_parse(w->s.ops->name);
    long long maxt = w->plan.maxthreads;
    struct sbuf conf = {0};
    /* room for every client plus a few for the sweep's own admin queries */
    sbuf_printf(&conf, "max_connections=%lld\n", maxt + 20);
    sbuf_printf(&conf, "%s", sweep_why_server_conf(w)); /* what the collectors read */
    /* one line per --server-conf, a comma inside a value kept */
    char *extra = opts_lines(&w->o, "server-conf");
    if (extra)
        sbuf_printf(&conf, "%s\n", extra);
    free(extra);
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
    /* where to connect is the server's; how (TLS, compression) still the user's */
    db_target_keep_how(&t, &w->s.targets[0]);
    w->s.targets[0] = t; /* the throwaway server replaces the connection options */
    w->s.ntargets = 1;
    w->s.wcfg.targets = w->s.targets;
    w->s.wcfg.ntargets = 1;
    return 0;
}

/* ---- CPUs ---- */

/* The first k online CPUs (from) or the rest (from = k) into set. */
static void online_range(const struct sweep *w, int from, int to, struct cpulist *set)
{
    cpulist_clear(set);
    for (int i = from; i < to; i++)
        cpulist_add(set, w->plan.online[i]);
}

/* Hold the server to the first k online CPUs, read it back, place the client. */
static int hold_server(struct sweep *w, int k, char *srv_list, size_t sl, char *cli_list, size_t cl,
                       int *shared, char *err, size_t errlen)
{
    pid_t pids[MAX_PIDS];
    struct cpulist srv;
    if (cpulist_init(&srv) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    online_range(w, 0, k, &srv);
    cpulist_format(&srv, srv_list, sl);
    placement_client(w->cfg.client_cpus, w->plan.online, w->plan.nonline, k, cli_list, cl, shared);
    if (w->pool)
        pool_set_client_cpus(w->pool, cli_list[0] ? cli_list : NULL);
    else /* a scripted level (run_level) places its own threads */
        snprintf(w->run_level_cpus, sizeof w->run_level_cpus, "%s", cli_list);
    if (!cli_list[0])
        snprintf(cli_list, cl, "%s", w->facts.online);

    int rc = -1, all = k == w->plan.nonline;
    if (all && !w->cpu_changed && !w->cpu) {
        rc = 0; /* nothing was ever restricted: the server has every CPU */
        goto out;
    }
    if (!w->cpu) {
        int m = cpuset_method_parse(w->cfg.cpu_method);
        w->cpu = cpuset_open((enum cpu_method)m, err, errlen);
        if (!w->cpu)
            goto out;
    }
    w->cpu_changed = 1;
    int np = server_family(w, pids, MAX_PIDS);
    if (np <= 0) {
        snprintf(err, errlen, "cannot find the server's processes to hold them to %d CPUs", k);
        goto out;
    }
    /* apply, then read back; a backend that appeared in between gets a
     * second pass */
    for (int attempt = 0; attempt < 3 && rc < 0; attempt++) {
        if (cpuset_apply(w->cpu, pids, np, &srv, err, errlen) < 0)
            goto out;
        np = server_family(w, pids, MAX_PIDS);
        if (cpuset_verify(w->cpu, pids, np, &srv, err, errlen) == 0)
            rc = 0;
    }
out:
    cpulist_free(&srv);
    return rc;
}

void sweep_restore_cpus(struct sweep *w)
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

/* 1 when the server's main process is known and gone (or a zombie), 0 when
 * it runs or is not known (an external server without a pid). */
static int server_gone(const struct sweep *w)
{
    pid_t pid = w->managed ? w->srv.pid : w->ext_pid;
    if (pid <= 0)
        return 0;
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* ") S PPID ..." */
    return p && (p[2] == 'Z' || p[2] == 'X');
}

static void server_gone_msg(const struct sweep *w, int level, char *err, size_t errlen,
                            const char *detail)
{
    snprintf(err, errlen,
             "the %s server (pid %ld) died during level %d; %d finished level(s) kept%s%s",
             w->managed ? "managed" : "external", (long)(w->managed ? w->srv.pid : w->ext_pid),
             level, w->nsaved - w->nold, detail && *detail ? ": " : "", detail ? detail : "");
}

/* From the timing thread, exactly at the measured window's edges: the
 * server's CPU and the machine's idle are read there, so they leave out the
 * warmup as TPS and client CPU do. */
static void on_window(int begin, void *arg)
{
    struct sweep *w = arg;
    pid_t pids[MAX_PIDS];
    int np = server_family(w, pids, MAX_PIDS);
    if (begin) {
        w->win.srv_cpu0 = sysinfo_proc_cpu(pids, np);
        sysinfo_cpu_times(&w->win.t0);
        w->win.begun = 1;
    } else if (w->win.begun) {
        w->win.srv_cpu1 = sysinfo_proc_cpu(pids, np);
        sysinfo_cpu_times(&w->win.t1);
        w->win.ended = 1;
    }
    sweep_why_window(w, begin); /* the collectors' edges, right after ours */
}

/* The timing thread's periods, kept for intervals.csv; the level's key is
 * filled in once the level is a measurement (sweep_run). The lock because
 * the timing thread writes while the run loop may be looking. */
static pthread_mutex_t iv_mu = PTHREAD_MUTEX_INITIALIZER;

struct interval_row sweep_interval_row(const struct interval_stats *st)
{
    return (struct interval_row){.threads = st->threads,
                                 .t = st->t,
                                 .tps = st->tps,
                                 .qps = st->reads + st->writes + st->others,
                                 .p95 = st->lat_ms,
                                 .errors = st->errors};
}

static void on_interval(const struct interval_stats *st, void *arg)
{
    struct sweep *w = arg;
    struct interval_row r = sweep_interval_row(st);
    pthread_mutex_lock(&iv_mu);
    intervals_add(&w->iv_level, &r);
    pthread_mutex_unlock(&iv_mu);
}

/* The finished level's periods into intervals.csv, rewritten whole. 0 or -errno. */
static int keep_intervals(struct sweep *w, const struct result_row *r)
{
    pthread_mutex_lock(&iv_mu);
    for (size_t i = 0; i < w->iv_level.n; i++) {
        struct interval_row x = w->iv_level.rows[i];
        /* The timing thread goes on reporting while the loops drain after
         * the window (periods of 0 tps seen 4 s past a 2 s level): those
         * are not the level's figures. */
        if (r->time_s > 0 && x.t > r->time_s + 0.01)
            continue;
        snprintf(x.variant, sizeof x.variant, "%s", r->variant);
        x.cpus = r->cpus, x.threads = r->threads, x.repeat = r->repeat;
        intervals_add(&w->iv, &x);
    }
    w->iv_level.n = 0;
    pthread_mutex_unlock(&iv_mu);
    return w->iv.n ? intervals_write(w->out, &w->iv) : 0;
}

/* The finished level's latency histogram (its non-empty buckets) into
 * latency.csv, rewritten whole. 0 or -errno. */
static int keep_latency(struct sweep *w, const struct result_row *r, const struct hist *h)
{
    for (unsigned b = 0; h && b < HIST_BUCKETS; b++) {
        uint64_t n = atomic_load_explicit(&h->b[b], memory_order_relaxed);
        if (!n)
            continue;
        struct latcsv_row x = {.cpus = r->cpus,
                               .threads = r->threads,
                               .repeat = r->repeat,
                               .lo_ms = (double)hist_bucket_low(b) / 1e6,
                               .hi_ms = (double)hist_bucket_high(b) / 1e6,
                               .count = n};
        snprintf(x.variant, sizeof x.variant, "%s", r->variant);
        latcsv_add(&w->lat, &x);
    }
    return w->lat.n ? latcsv_write(w->out, &w->lat) : 0;
}

int sweep_open_pool(struct sweep *w, char *err, size_t errlen)
{
    w->s.wcfg.on_window = on_window;
    w->s.wcfg.on_window_arg = w;
    w->s.wcfg.rep.on_interval = on_interval;
    w->s.wcfg.rep.on_interval_arg = w;
    int mine = (int)w->plan.maxthreads;
    if (w->share && w->share->open(w, mine, &mine, err, errlen, w->share->arg) < 0)
        return -1;
    w->pool = pool_open(&w->s.wcfg, mine, err, errlen);
    if (w->share && w->share->all_open(w->pool != NULL, err, errlen, w->share->arg) < 0) {
        if (w->pool)
            pool_close(w->pool);
        w->pool = NULL;
    }
    return w->pool ? 0 : -1;
}

/* A level of a workload the pool does not run (a Lua script): it says
 * where its window (after the warmup, without the connects) begins and
 * ends, as the pool does, for the server's CPU and the idle time. */
static int run_custom(struct sweep *w, int threads, struct level_result *res)
{
    return w->run_level(w->run_level_arg, threads, w->run_level_cpus[0] ? w->run_level_cpus : NULL,
                        on_interval, on_window, w, res);
}

/* A level's figures and its collectors' rows, done with. */
static void level_done(struct level_result *res, struct why_result *why)
{
    level_result_free(res);
    why_result_free(why);
}

int sweep_run_one(struct sweep *w, int threads, struct level_result *res,
                  struct sweep_rank_fig **each)
{
    if (w->share) /* this process runs its share; the ranks' results reduce here */
        return sweep_ranks_level(w, threads, res, each);
    if (w->run_level)
        return run_custom(w, threads, res);
    return pool_run(w->pool, threads, res);
}

int sweep_hold(struct sweep *w, int k, char *srv_list, size_t sl, char *err, size_t errlen)
{
    char cli_list[256];
    int shared;
    return hold_server(w, k, srv_list, sl, cli_list, sizeof cli_list, &shared, err, errlen);
}

/* The rows before the levels: --append's earlier ones first, and their
 * periods and histograms, which stay in intervals.csv and latency.csv. */
static void start_rows(struct sweep *w)
{
    w->rows = xcalloc((size_t)(w->nold + w->plan.nlevels), sizeof *w->rows);
    if (w->nold)
        memcpy(w->rows, w->old_rows, (size_t)w->nold * sizeof *w->rows);
    w->nrows = w->nsaved = w->nold;
    if (w->nold) {
        char ierr[600], ipath[1100];
        snprintf(ipath, sizeof ipath, "%s/intervals.csv", w->out);
        if (access(ipath, F_OK) == 0 && intervals_read(ipath, &w->iv, ierr, sizeof ierr) < 0)
            intervals_free(&w->iv); /* unreadable: rewritten from this run's */
        snprintf(ipath, sizeof ipath, "%s/latency.csv", w->out);
        if (access(ipath, F_OK) == 0 && latcsv_read(ipath, &w->lat, ierr, sizeof ierr) < 0)
            latcsv_free(&w->lat);
    }
}

/* The level just filled in (the last row) on disk: results.csv, then
 * meta.json (after a crash or SIGKILL it still says how many levels
 * results.csv holds), then its time series, histogram and why files, once
 * results.csv and meta.json agree on what was measured. 0, or -1 with err. */
static int keep_level(struct sweep *w, const struct level_result *res, struct why_result *why,
                      char *err, size_t errlen)
{
    const struct result_row *row = &w->rows[w->nrows - 1];
    int wr = results_write_csv_ranks(w->out, w->rows, (size_t)w->nrows, w->rank_rows,
                                     (size_t)w->nrank_rows);
    if (wr != 0) {
        snprintf(err, errlen, "cannot write %s/results.csv: %s", w->out,
                 strerror(wr < 0 ? -wr : EIO));
        return -1;
    }
    w->nsaved = w->nrows;
    if ((wr = sweep_write_meta(w, NULL)) != 0) {
        snprintf(err, errlen, "cannot write %s/meta.json: %s", w->out, strerror(-wr));
        return -1;
    }
    if ((wr = keep_intervals(w, row)) != 0) {
        snprintf(err, errlen, "cannot write %s/intervals.csv: %s", w->out, strerror(-wr));
        return -1;
    }
    if ((wr = keep_latency(w, row, res->lat)) != 0) {
        snprintf(err, errlen, "cannot write %s/latency.csv: %s", w->out, strerror(-wr));
        return -1;
    }
    if ((wr = sweep_why_keep(w, row, res, why)) != 0) {
        snprintf(err, errlen, "cannot write the why files in %s: %s", w->out, strerror(-wr));
        return -1;
    }
    return 0;
}

static int run_levels(struct sweep *w, int *baseline_done, char *err, size_t errlen)
{
    int last_k = -1;
    char srv_list[256] = "", cli_list[256] = "";
    int shared = 1;
    double level_s = 0, baseline_s = 0; /* measured wall time, summed */
    int nlevel_s = 0, nbaseline_s = 0;
    start_rows(w);
    for (int i = 0; i < w->plan.nlevels && !*w->stop; i++) {
        const struct sweep_level *lv = &w->plan.levels[i];
        char variant[64];
        sweep_variant(variant, sizeof variant, w->cfg.variant, w->facts.up, w->plan.kcpus[lv->k]);
        if (lv->k != last_k) {
            if (hold_server(w, w->plan.kcpus[lv->k], srv_list, sizeof srv_list, cli_list,
                            sizeof cli_list, &shared, err, errlen) < 0)
                return -1;
            last_k = lv->k;
            if (!baseline_done[lv->k]) {
                baseline_done[lv->k] = 1;
                if (w->on_baseline && baseline_enabled(w->cfg.baseline))
                    w->on_baseline(w, w->plan.kcpus[lv->k], w->on_level_arg);
                uint64_t b0 = now_ns();
                if (baseline_run(w->cfg.baseline, w->plan.online, w->plan.kcpus[lv->k], w->out,
                                 variant, w->stop, err, errlen) < 0)
                    return -1;
                baseline_s += (double)(now_ns() - b0) / 1e9;
                nbaseline_s++;
            }
        }
        /* server CPU and idle come from on_window, at the window's edges */
        memset(&w->win, 0, sizeof w->win);
        pthread_mutex_lock(&iv_mu);
        w->iv_level.n = 0; /* an interrupted level's periods are no measurement */
        pthread_mutex_unlock(&iv_mu);
        struct level_result res;
        struct why_result why;
        uint64_t l0 = now_ns();
        struct sweep_rank_fig *each = NULL;
        sweep_why_begin(w, srv_list, lv->threads, 0); /* before the level: perf attaches */
        int rc = sweep_run_one(w, lv->threads, &res, &each);
        sweep_why_end(w, &res, &why);
        double wall = (double)(now_ns() - l0) / 1e9;
        /* a level always has both edges unless it was stopped (then it is
         * dropped below); without them the figures stay 0 */
        int win = w->win.begun && w->win.ended;
        double cpu0 = win ? w->win.srv_cpu0 : 0, cpu1 = win ? w->win.srv_cpu1 : 0;
        struct sysinfo_cpu_times t0 = win ? w->win.t0 : (struct sysinfo_cpu_times){0};
        struct sysinfo_cpu_times t1 = win ? w->win.t1 : t0;
        int keep = rc == 0 && !*w->stop && !(res.txns == 0 && server_gone(w));
        if (each && keep)
            sweep_add_rank_rows(w, lv, variant, each, srv_list, cli_list, shared);
        sweep_ranks_free(w, each);
        if (rc < 0) {
            if (server_gone(w))
                server_gone_msg(w, i + 1, err, errlen, res.fatal_msg);
            else
                snprintf(err, errlen, "level %d (cpus=%d threads=%d): %s", i + 1,
                         w->plan.kcpus[lv->k], lv->threads, res.fatal_msg);
            level_done(&res, &why);
            return -1;
        }
        /* a level that completed nothing against a server that is gone is no
         * measurement, and neither would the rest be: stop with the reason */
        if (rc == 0 && res.txns == 0 && server_gone(w)) {
            server_gone_msg(w, i + 1, err, errlen,
                            "no transaction completed; its process is gone, so it is unreachable");
            level_done(&res, &why);
            return -1;
        }
        if (rc == 1 || *w->stop) { /* interrupted mid-level: not a measurement */
            level_done(&res, &why);
            break;
        }
        sweep_fill_row(w, &w->rows[w->nrows++], lv, variant, &res, cpu1 > cpu0 ? cpu1 - cpu0 : 0,
                       sysinfo_idle_pct(&t0, &t1), srv_list, cli_list, shared);
        w->nskews += w->share != NULL; /* a measured level's skew */
        if (keep_level(w, &res, &why, err, errlen) < 0) {
            level_done(&res, &why);
            return -1;
        }
        level_s += wall;
        nlevel_s++;
        if (w->on_level)
            w->on_level(w, i, variant,
                        sweep_plan_eta(&w->plan, i + 1, level_s / nlevel_s,
                                       nbaseline_s ? baseline_s / nbaseline_s : 0, baseline_done),
                        w->on_level_arg);
        level_done(&res, &why);
    }
    return 0;
}

int sweep_run(struct sweep *w, char *err, size_t errlen)
{
    /* one flag per CPU count of the plan: no ceiling on how many */
    int *baseline_done = xcalloc((size_t)(w->plan.nk > 0 ? w->plan.nk : 1), sizeof *baseline_done);
    sweep_why_open(w); /* the collectors see every level, the plan's and knee's */
    int rc = run_levels(w, baseline_done, err, errlen);
    if (rc == 0)
        rc = sweep_why_knee(w, err, errlen);
    free(baseline_done);
    return rc;
}
