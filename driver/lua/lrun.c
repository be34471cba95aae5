/*
 * lrun.c - a sysbench Lua script's run: init() on a state of its own, the
 * level run by the connection machine (pool_run, client/worker.h) with the
 * script's connections as its own (lloop.c: each a struct conn whose
 * statements come from its Lua fiber), done().
 *
 * The one idea: a scripted level is a built-in level. Its warmup, ramp,
 * window, --report-interval and checkpoints, give-up and figures are
 * pool_run's; what a script adds is sysbench's end rule (the window's
 * tail: events still running at the end count, and the window closes
 * where the last run ends), its own statement counters, and the watchdog
 * (lwatch.c) for Lua code that never gives its loop back. Loops are sized
 * as the built-in mixes size theirs: --client-loops, else one per client
 * CPU, never more than connections. Never prints or exits.
 */
#include <lauxlib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "lua/lloop.h"
#include "lua/lwatch.h"
#include "core/util.h"

/* A stop asked (a signal), for the report's "interrupted". */
static volatile sig_atomic_t stop_asked;
/* the window of the run going on, for the stop (NULL between runs) */
static struct window_state *_Atomic stop_win;

void lscript_stop(void)
{
    stop_asked = 1;
    struct window_state *w = atomic_load(&stop_win);
    if (w)
        window_stop(w);
}

/* The run's shared parts and its n connections, in the pool the level
 * runs on, carried round-robin by nl loops (pool_run's sharing). */
static struct lloop_run *lay_out(const struct lapi_script *s, const struct worker_cfg *cfg, int n)
{
    /* on the heap: an abandoned loop (lwatch.h) may still use it after the return */
    struct lloop_run *run = xcalloc(1, sizeof *run);
    struct worker_cfg c = *cfg;
    c.ops = s->ops;
    c.seed = s->seed;
    c.wl = NULL; /* the statements are the script's */
    c.targets = NULL;
    c.ntargets = 0;
    c.before_window = NULL;
    c.txn_log = ""; /* none: a script has no transaction log */
    struct pool *p = pool_new(&c);
    p->src = &lloop_source;
    p->src_arg = run;
    p->win.tail = 1; /* sysbench's end rule (window_state.h) */
    run->pool = p;
    run->n = n;
    run->nl = pool_loops(p, n); /* the loops pool_run will start */
    run->base_at_open = c.warmup_s > 0 || pool_ramps(p);
    run->cs = xcalloc((size_t)n, sizeof *run->cs);
    size_t sz = sizeof(struct lloop) * (size_t)run->nl; /* a multiple of its 64-byte alignment */
    run->loops = aligned_alloc(64, sz);
    if (!run->loops)
        die(EXIT_RUNTIME, "out of memory for %d event loops", run->nl);
    memset(run->loops, 0, sz);
    p->conns = xcalloc((size_t)n, sizeof *p->conns);
    p->n = n;
    for (int i = 0; i < n; i++)
        lloop_conn_init(run, s, i);
    return run;
}

/* Where the script defines its functions, for the watchdog's message. */
static void lines_of(lua_State *M, struct lwatch_lines *ln)
{
    static const char *const fn[] = {"thread_init", "event", "thread_done"};
    int *at[] = {&ln->thread_init, &ln->event, &ln->thread_done};
    for (int i = 0; i < 3; i++) {
        lua_Debug ar;
        lua_getglobal(M, fn[i]);
        if (lua_isfunction(M, -1) && lua_getinfo(M, ">S", &ar))
            *at[i] = ar.linedefined;
        else
            lua_pop(M, 1);
    }
}

/* The watchdog gave up on a loop (lwatch.h): its thread still runs and
 * uses the run's memory, so nothing is freed; the caller reports and the
 * process ends. */
static int abandon(struct lwatch *wd, struct level_result *out, char *err, size_t errlen)
{
    const char *why = lwatch_stop(wd);
    snprintf(err, errlen, "%s", why ? why : "a scripted connection's loop was abandoned");
    snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", err);
    out->interrupted = stop_asked != 0;
    out->abandoned = 1;
    return -1;
}

/* out's latencies when the level never collected them (it failed to
 * start, or was abandoned): empty, so the report reads no NULL. */
static void lat_of(struct level_result *out)
{
    if (!out->lat) {
        out->lat = xmalloc(sizeof *out->lat);
        hist_init(out->lat);
    }
}

/* The script's main state: opened, checked for an event() (the default
 * thread_run calls it; without either there is no run) and its init() run.
 * NULL with err. */
static lua_State *open_main(const struct lapi_script *s, struct lapi_thread *mt, char *err,
                            size_t errlen)
{
    lapi_thread_seed(mt, s, 0);
    lua_State *M = lapi_open(mt, err, errlen);
    if (!M)
        return NULL;
    lua_getglobal(M, "event");
    int has_event = lua_isfunction(M, -1);
    lua_pop(M, 1);
    if (!has_event) {
        snprintf(err, errlen,
                 "%s: the script defines no event() function, so 'run' has nothing "
                 "to do",
                 s->path);
        lua_close(M);
        return NULL;
    }
    if (lapi_call(M, "init", 0, err, errlen) < 0) {
        lua_close(M);
        return NULL;
    }
    return M;
}

/* The run's failure, if any: the watchdog's reason (why), else the first
 * connection that failed, else a loop the machine stopped (loop_fail: an
 * epoll call failed; pool_run put it in out). 0, or -1 with err and
 * out->fatal_msg. */
static int failures(const struct lloop_run *run, const char *why, struct level_result *out,
                    char *err, size_t errlen)
{
    if (why) { /* stopped for memory: every loop came back */
        snprintf(err, errlen, "%s", why);
        snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", err);
        return -1;
    }
    for (int i = 0; i < run->n; i++)
        if (run->cs[i].failed) {
            snprintf(err, errlen, "connection %d (sysbench.tid %d): %s", i, i, run->cs[i].err);
            snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", err);
            if (run->cs[i].init_failed) /* as sysbench: threads that never began have no report */
                out->time_s = 0;
            return -1;
        }
    if (out->fatal_msg[0]) {
        snprintf(err, errlen, "%s", out->fatal_msg);
        return -1;
    }
    return 0;
}

static void free_run(struct lloop_run *run)
{
    free(run->loops);
    free(run->cs);
    pool_close(run->pool); /* the window's; the connections were the run's */
    free(run);
}

int lscript_run(const struct lapi_script *s, const struct worker_cfg *cfg, struct level_result *out,
                char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->threads = s->threads;
    stop_asked = 0;
    struct lapi_thread mt;
    lua_State *M = open_main(s, &mt, err, errlen);
    if (!M) {
        lat_of(out);
        return -1;
    }
    struct lloop_run *run = lay_out(s, cfg, s->threads);
    atomic_store(&stop_win, &run->pool->win);
    if (stop_asked) /* it came before the run's window was there */
        window_stop(&run->pool->win);
    struct lwatch_lines ln = {.path = s->path};
    lines_of(M, &ln);
    run->wd = lwatch_start(run, run->loops, run->nl, &ln); /* (lwatch.h) */
    pool_run(run->pool, s->threads, out);
    lat_of(out);
    if (out->abandoned) /* a loop still runs: touch nothing of the run */
        return abandon(run->wd, out, err, errlen);
    const char *why = lwatch_stop(run->wd); /* stopped for memory, or a stuck event given up */
    int rc = failures(run, why, out, err, errlen);
    out->interrupted = stop_asked != 0;
    atomic_store(&stop_win, NULL);
    lwatch_free(run->wd);
    free_run(run);
    lapi_enter(&mt);
    if (lapi_call(M, "done", 0, rc ? NULL : err, rc ? 0 : errlen) < 0 && rc == 0)
        rc = -1;
    lua_close(M);
    return rc;
}
