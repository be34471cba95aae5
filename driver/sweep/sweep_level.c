/*
 * sweep_level.c - one level, however this sweep runs one: the server held
 * to the level's CPUs (applied, then read back from /proc) with the client
 * placed beside it, and put back when the sweep ends; the timing thread's
 * hooks (at the window's edges the server's CPU, the machine's idle and the
 * collectors' edges; its periods, kept for intervals.csv); and the level
 * itself, over the MPI ranks, as a script's level, or on the pool.
 *
 * The one idea: the plan's levels (sweep.c) and --profile=knee's extra ones
 * (sweep_knee.c) run through these same few calls, so a profiled level is
 * held and measured as a planned one is. It calls only down: the server's
 * processes (sweep_server.c), the collectors' window edge (sweep_why.c),
 * the ranks (sweep_ranks.c). It never prints and never writes results.csv.
 */
#include "sweep/sweep.h"

#include <pthread.h>
#include <stdio.h>

#include "machine/placement.h"
#include "core/util.h"

#define MAX_PIDS 4096

/* ---- the server's CPUs ---- */

/* The first k online CPUs (from) or the rest (from = k) into set. */
static void online_range(const struct sweep *w, int from, int to, struct cpulist *set)
{
    cpulist_clear(set);
    for (int i = from; i < to; i++)
        cpulist_add(set, w->plan.online[i]);
}

int sweep_hold_server(struct sweep *w, int k, char *srv_list, size_t sl, char *cli_list, size_t cl,
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
    int np = sweep_server_family(w, pids, MAX_PIDS);
    if (np <= 0) {
        snprintf(err, errlen, "cannot find the server's processes to hold them to %d CPUs", k);
        goto out;
    }
    /* apply, then read back; a backend that appeared in between gets a
     * second pass */
    for (int attempt = 0; attempt < 3 && rc < 0; attempt++) {
        if (cpuset_apply(w->cpu, pids, np, &srv, err, errlen) < 0)
            goto out;
        np = sweep_server_family(w, pids, MAX_PIDS);
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
    int np = sweep_server_family(w, pids, MAX_PIDS);
    cpuset_close(w->cpu, pids, np > 0 ? np : 0);
    w->cpu = NULL;
    w->cpu_changed = 0;
}

/* ---- the timing thread's hooks ---- */

/* From the timing thread, exactly at the measured window's edges: the
 * server's CPU and the machine's idle are read there, so they leave out the
 * warmup as TPS and client CPU do. */
static void on_window(int begin, void *arg)
{
    struct sweep *w = arg;
    pid_t pids[MAX_PIDS];
    int np = sweep_server_family(w, pids, MAX_PIDS);
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
 * filled in once the level is a measurement (sweep_keep_intervals, from
 * sweep.c's run loop). The lock because
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

void sweep_periods_clear(struct sweep *w)
{
    pthread_mutex_lock(&iv_mu);
    w->iv_level.n = 0;
    pthread_mutex_unlock(&iv_mu);
}

int sweep_keep_intervals(struct sweep *w, const struct result_row *r)
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

/* ---- the level ---- */

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
    return sweep_hold_server(w, k, srv_list, sl, cli_list, sizeof cli_list, &shared, err, errlen);
}
