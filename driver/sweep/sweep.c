/*
 * sweep.c - the run loop: threads x CPU count x repeats against one server,
 * results kept; then --profile=knee's extra levels (sweep_knee.c).
 *
 * Connections are opened once for the largest level and reused; before a
 * level counts, the server's CPU mask is applied again and read back from
 * /proc (sweep_level.c runs each level, for the plan and the knee alike).
 * After every level the whole results.csv is rewritten atomically, so
 * an interrupt or a crash loses at most the level in flight. Whatever the
 * sweep changed (CPU masks, offline CPUs, a server it started) is put back
 * by the verb on every way out. This file is the top of the room: it calls
 * down into the others (sweep_level.c, sweep_why.c, sweep_meta.c,
 * sweep_knee.c) and none of them calls it. This room never prints a report
 * or decides an exit code: it returns errors and hands each finished level
 * to a callback.
 */
#include "sweep/sweep.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sweep/baseline.h"
#include "core/util.h"

/* ---- the server ---- */

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
    int rc = server_start_from(&w->srv, e, w->inst.daemon[0] ? &w->inst : NULL, NULL, 0, NULL,
                               conf.s, err, errlen);
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

/* ---- the plan's levels ---- */

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

/* A level's figures and its collectors' rows, done with. */
static void level_done(struct level_result *res, struct why_result *why)
{
    level_result_free(res);
    why_result_free(why);
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
        snprintf(ipath, sizeof ipath, "%s/levels.csv", w->out);
        if (access(ipath, F_OK) == 0 && levels_read(ipath, &w->lvl, ierr, sizeof ierr) < 0)
            levels_free(&w->lvl); /* unreadable: rewritten from this run's */
    }
}

/* The level just filled in (the last row) on disk: results.csv, then
 * meta.json (after a crash or SIGKILL it still says how many levels
 * results.csv holds), then its time series, histogram, start time and why
 * files, once
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
    if ((wr = sweep_keep_intervals(w, row)) != 0) {
        snprintf(err, errlen, "cannot write %s/intervals.csv: %s", w->out, strerror(-wr));
        return -1;
    }
    if ((wr = keep_latency(w, row, res->lat)) != 0) {
        snprintf(err, errlen, "cannot write %s/latency.csv: %s", w->out, strerror(-wr));
        return -1;
    }
    if ((wr = levels_write(w->out, &w->lvl)) != 0) {
        snprintf(err, errlen, "cannot write %s/levels.csv: %s", w->out, strerror(-wr));
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
            if (sweep_hold_server(w, w->plan.kcpus[lv->k], srv_list, sizeof srv_list, cli_list,
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
        sweep_periods_clear(w); /* an interrupted level's periods are no measurement */
        struct level_result res;
        struct why_result why;
        uint64_t l0 = now_ns();
        struct timespec started;
        clock_gettime(CLOCK_REALTIME, &started);
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
        struct result_row *row = &w->rows[w->nrows++];
        sweep_fill_row(w, row, lv, variant, &res, cpu1 > cpu0 ? cpu1 - cpu0 : 0,
                       sysinfo_idle_pct(&t0, &t1), srv_list, cli_list, shared);
        struct level_time lt = {.cpus = row->cpus,
                                .threads = row->threads,
                                .repeat = row->repeat,
                                .started = (double)started.tv_sec + started.tv_nsec / 1e9,
                                .seconds = wall};
        snprintf(lt.variant, sizeof lt.variant, "%s", row->variant);
        snprintf(lt.boot, sizeof lt.boot, "%s", row->boot);
        levels_add(&w->lvl, &lt);
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
        rc = sweep_knee_run(w, err, errlen);
    free(baseline_done);
    return rc;
}
