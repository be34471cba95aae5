/*
 * lrun.c - a sysbench Lua script's run: init() on a state of its own, the
 * connections spread over a few event loops (lloop.c), their figures
 * collected into the struct level_result a built-in run reports.
 *
 * The one idea: the loops only drive; the pacing (more events? the
 * deadline, --events) and the timing of each event into the connection's
 * histogram happen here, in the callbacks thread_run calls, so the figures
 * are counted as the thread-per-connection shape counted them. Loops are
 * sized as the built-in mixes size theirs: --client-loops, else one per
 * client CPU, never more than connections. Never prints or exits.
 */
#include <lauxlib.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "client/evloop.h"
#include "client/level.h"
#include "client/ticker.h"
#include "client/window.h"
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

int lrun_stopped(struct lloop_run *sh)
{
    return atomic_load_explicit(&sh->pool->win.stop, memory_order_relaxed);
}

int lrun_ending(struct lloop_run *sh)
{
    return window_ending(&sh->pool->win, now_ns());
}

/* thread_run asks for its next event: the fiber waits in the machine's
 * loop, which asks the window as it does for a built-in connection
 * (conn.c's CS_BEGIN: a --rate arrival or the ramp's hold wait on the
 * loop's timer) and answers 1 begin it, 0 no more. */
static int more(struct lapi_thread *t)
{
    struct lapi_async *a = t->aio;
    if (!a || a->abort)
        return 0;
    a->want = LAPI_WAIT_BEGIN;
    t->wait(t);
    return a->go && !a->abort;
}

/* An event's edges, counted by the machine as a built-in transaction's
 * (latency from the --rate arrival, so time queued while every connection
 * was busy counts, as in sysbench); the trx counter too, for the script. */
static void ev_start(struct lapi_thread *t)
{
    struct lloop_conn *c = t->run;
    conn_event_start(&c->loop->loop, &c->conn);
}

static void ev_stop(struct lapi_thread *t)
{
    struct lloop_conn *c = t->run;
    window_leave(&c->run->pool->win, &c->conn.wc);
    if (conn_event_done(&c->loop->loop, &c->conn, now_ns()))
        lapi_count(t, SB_CNT_TRX); /* else --warmup-time or the ramp: run, not counted */
}

/* Errors by code, as the built-in loops count them (in the window only). */
static void on_ignored(struct lapi_thread *t, const char *code)
{
    struct lloop_conn *c = t->run;
    if (window_counted(&c->run->pool->win, now_ns()))
        err_count_add(c->codes, &c->ncodes, code, 1);
}

/* A connection lost in the window, as the built-in loops count one. */
static void on_lost(struct lapi_thread *t)
{
    struct lloop_conn *c = t->run;
    if (window_counted(&c->run->pool->win, now_ns()))
        c->lost++;
}

/* The script closes one of its connections: the machine stops watching its
 * socket first (before the state's loop exists, nothing watches). */
static void on_close(struct lapi_thread *t, const struct db_conn *db)
{
    struct lloop_conn *c = t->run;
    if (c->loop)
        conn_unwatch_db(&c->loop->loop, &c->conn, db);
}

/* ---- the ticker: --report-interval and --report-checkpoints ---- */

/* The counters as a result's counts. */
static void as_counts(const uint64_t c[SB_CNT_MAX], struct window_counts *w)
{
    w->txns = c[SB_CNT_TRX];
    w->reads = c[SB_CNT_READ];
    w->writes = c[SB_CNT_WRITE];
    w->others = c[SB_CNT_OTHER];
    w->errors = c[SB_CNT_ERROR];
    w->reconnects = c[SB_CNT_RECONNECT];
}

/* The run's timing thread: its window's periods and checkpoints
 * (client/ticker.h), over the connections' counters. */
struct ltick {
    struct ticker tk;
    struct lloop_run *run;
    struct lloop_conn *cs;
    int n;
    struct lloop *loops;
    int nl;
    atomic_int done;
    pthread_t th;
};

/* The connections' counts since their baselines, and the loops'
 * latencies. */
static void sum_counts(void *arg, struct window_counts *w, struct hist *h)
{
    const struct ltick *k = arg;
    uint64_t c[SB_CNT_MAX] = {0};
    hist_init(h);
    for (int i = 0; i < k->n; i++)
        for (int j = 0; j < SB_CNT_MAX; j++)
            c[j] += lapi_counter(&k->cs[i].t, j) - k->cs[i].base[j];
    for (int i = 0; i < k->nl; i++)
        hist_merge(h, &k->loops[i].loop.lat); /* readable while written: hist.h */
    as_counts(c, w);
}

/* Until the loops are joined: the reports due while the window is open,
 * which closes where the last connection's events end (lloop.c); a
 * checkpoint at or past --time is the final report's, as a built-in
 * level's. */
static void *tick_main(void *arg)
{
    struct ltick *k = arg;
    struct lloop_run *run = k->run;
    while (!atomic_load(&k->done)) {
        uint64_t now = now_ns(), due = UINT64_MAX;
        if (atomic_load(&run->window_state) == LLOOP_WIN_OPEN)
            due = ticker_tick(&k->tk, now, 0, atomic_load(&run->pool->win.end));
        if (now < due) {
            uint64_t w = due - now < 50000000 ? due - now : 50000000; /* notice the end */
            struct timespec ts = {(time_t)(w / 1000000000u), (long)(w % 1000000000u)};
            nanosleep(&ts, NULL);
        }
    }
    return NULL;
}

/* Sum the connections into out, once every loop is joined: after a
 * checkpoint (ck taken), only what came after it. */
static void collect(struct pool *p, struct lloop_conn *cs, int n, const struct lloop *loops, int nl,
                    const struct window_ckpt *ck, struct level_result *out)
{
    uint64_t max_gap = 0; /* the run's stall: its loops' longest */
    for (int i = 0; i < nl; i++) {
        if (loops[i].loop.stall.max_gap > max_gap)
            max_gap = loops[i].loop.stall.max_gap;
        hist_merge(out->lat, &loops[i].loop.lat);
    }
    uint64_t c[SB_CNT_MAX] = {0};
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < SB_CNT_MAX; j++)
            c[j] += cs[i].t.cnt[j] - cs[i].base[j];
        for (int k = 0; k < cs[i].ncodes; k++)
            err_count_add(out->codes, &out->ncodes, cs[i].codes[k].code, cs[i].codes[k].n);
        out->unfinished += (uint64_t)cs[i].unfinished;
        out->lost += cs[i].lost;
    }
    struct window_counts tot;
    as_counts(c, &tot);
    window_set_counts(out, &tot, NULL);
    window_since_ckpt_counts(ck, out);
    level_result_disturbance(out, window_stall_s(max_gap));
    window_fairness(n, level_conn_figures, p, ck, out);
}

/* The ramp (lscript_limits.ramp_timeout_s): the window waits for every
 * connection's first event. */
static int ramps(const struct lscript_limits *lim)
{
    return window_ramps(lim->ramp_timeout_s, lim->events, lim->rate);
}

/* --warmup-time and the ramp: events run, uncounted, until the warmup has
 * passed and every connection has finished an event (or the ramp's
 * timeout has passed, or the run ends sooner); then the window opens and
 * the counters so far become each connection's baseline. Transactions
 * count only inside the window (ev_stop), so none is lost or doubled at
 * the edge. */
static void warm_up(struct lloop_run *run, struct lloop_conn *cs, int n, int nl,
                    struct level_result *out)
{
    uint64_t t0 = now_ns(), until = t0 + (uint64_t)(run->lim->warmup_s * 1e9);
    uint64_t ramp_end = ramps(run->lim) ? t0 + (uint64_t)(run->lim->ramp_timeout_s * 1e9) : 0;
    if (ramp_end)
        atomic_store(&run->pool->win.hold_from, until);
    for (uint64_t now; !lrun_ending(run) && atomic_load(&run->loops_done) < nl;) {
        now = now_ns();
        int ramping = now < ramp_end && atomic_load(&run->pool->win.warm) < n;
        if (now >= until && !ramping)
            break;
        uint64_t w = now < until && until - now < 20000000 ? until - now : 20000000;
        struct timespec ts = {0, (long)w};
        nanosleep(&ts, NULL);
    }
    if (ramp_end) {
        uint64_t now = now_ns();
        out->ramp_s = (double)(now - t0) / 1e9;
        if (now >= ramp_end) /* timed out (not a stop, nor the events over) */
            out->ramp_missing = n - atomic_load(&run->pool->win.warm);
    }
    atomic_store(&run->pool->win.start, now_ns());
    for (int i = 0; i < n; i++)
        for (int j = 0; j < SB_CNT_MAX; j++)
            if (j != SB_CNT_TRX)
                cs[i].base[j] = lapi_counter(&cs[i].t, j);
}

/* The run's shared parts, its n connections (into *cs) and the nl loops
 * that carry them, round-robin. */
static struct lloop *lay_out(struct lloop_run *run, const struct lapi_script *s, int n, int nl,
                             struct lloop_conn **cs_out)
{
    const struct lscript_limits *lim = run->lim;
    struct pool *p = run->pool;
    pthread_barrier_init(&run->ready, NULL, (unsigned)nl + 1);
    struct window_state *w = &p->win;
    w->events = lim->events;
    w->paced = lim->rate > 0;
    w->tail = 1;                                         /* sysbench's end rule (window_state.h) */
    arrivals_start(&w->arrivals, lim->rate, s->seed, 0); /* at the first event */
    /* shut until warm_up opens it, or open from the first event on */
    atomic_store(&w->start, lim->warmup_s > 0 || ramps(lim) ? WINDOW_SHUT : 1);
    struct lloop_conn *cs = xcalloc((size_t)n, sizeof *cs);
    size_t sz = sizeof(struct lloop) * (size_t)nl; /* a multiple of its 64-byte alignment */
    struct lloop *loops = aligned_alloc(64, sz);
    if (!loops)
        die(EXIT_RUNTIME, "out of memory for %d event loops", nl);
    memset(loops, 0, sz);
    for (int i = 0; i < nl; i++) {
        loops[i].run = run;
        loops[i].loop.pool = p;
        loops[i].loop.conns = xcalloc((size_t)n / (size_t)nl + 1, sizeof *loops[i].loop.conns);
        loops[i].loop.ep = -1;
        hist_init(&loops[i].loop.lat);
    }
    p->conns = xcalloc((size_t)n, sizeof *p->conns);
    p->n = p->threads = n;
    for (int i = 0; i < n; i++) {
        struct lloop_conn *c = &cs[i];
        c->run = run;
        lapi_thread_seed(&c->t, s, i);
        c->t.run = c;
        c->t.more = more;
        c->t.ev_start = ev_start;
        c->t.ev_stop = ev_stop;
        c->t.on_ignored = on_ignored;
        c->t.on_lost = on_lost;
        c->conn.idx = i;
        c->t.on_close = on_close;
        c->conn.err = &c->a.e; /* a reply's error, for the script */
        p->conns[i] = &c->conn;
        struct loop *l = &loops[i % nl].loop;
        l->conns[l->n++] = &c->conn;
    }
    *cs_out = cs;
    return loops;
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
    snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", why);
    out->interrupted = stop_asked != 0;
    out->abandoned = 1;
    return -1;
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
 * epoll call failed). 0, or -1 with err and out->fatal_msg. */
static int failures(const struct lloop_conn *cs, int n, const struct lloop *loops, int nl,
                    const char *why, struct level_result *out, char *err, size_t errlen)
{
    if (why) { /* stopped for memory: every loop came back */
        snprintf(err, errlen, "%s", why);
        snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", err);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (cs[i].failed) {
            snprintf(err, errlen, "connection %d (sysbench.tid %d): %s", i, i, cs[i].err);
            snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", err);
            if (cs[i].init_failed) /* as sysbench: threads that never began have no report */
                out->time_s = 0;
            return -1;
        }
    for (int i = 0; i < nl; i++)
        if (loops[i].loop.fatal[0]) {
            snprintf(err, errlen, "%s", loops[i].loop.fatal);
            snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", err);
            return -1;
        }
    return 0;
}

/* What the run's loops and connections held, once every loop came back. */
static void free_run(struct lloop_run *run, struct lloop_conn *cs, struct lloop *loops, int nl)
{
    for (int i = 0; i < nl; i++) {
        free(loops[i].loop.conns);
        free(loops[i].loop.log);
    }
    free(loops);
    free(cs);
    pool_close(run->pool); /* the window's; the connections were the run's */
    pthread_barrier_destroy(&run->ready);
    free(run);
}

int lscript_run(const struct lapi_script *s, const struct lscript_limits *lim,
                struct level_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->threads = s->threads;
    out->lat = xmalloc(sizeof *out->lat);
    hist_init(out->lat);
    stop_asked = 0;
    struct lapi_thread mt;
    lua_State *M = open_main(s, &mt, err, errlen);
    if (!M)
        return -1;
    int n = s->threads;
    /* on the heap: an abandoned loop (lwatch.h) may still use it after the return */
    struct lloop_run *run = xcalloc(1, sizeof *run);
    run->lim = lim;
    run->pool = pool_new(&(struct worker_cfg){
        .ops = s->ops,
        .seed = s->seed,
        .loops = lim->loops,
        .batch_from = lim->batch_from,
        .rate = lim->rate,
        .events = lim->events,
        .grace_s = lim->grace_s,
        .client_cpus = lim->client_cpus,
        .txn_log = "", /* none: a script has no transaction log */
    });
    run->pool->src = &lloop_source;
    atomic_store(&stop_win, &run->pool->win);
    if (stop_asked) /* it came before the run's window was there */
        window_stop(&run->pool->win);
    int nl = evloop_count(lim->loops, run->pool->client_ncpus, n);
    out->loops = nl;
    struct lloop_conn *cs;
    struct lloop *loops = lay_out(run, s, n, nl, &cs);
    /* the stop signals stay with the caller's thread, as the built-in
     * loops leave them */
    sigset_t stopset, old;
    sigemptyset(&stopset);
    sigaddset(&stopset, SIGINT);
    sigaddset(&stopset, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stopset, &old);
    for (int i = 0; i < nl; i++)
        if (pthread_create(&loops[i].loop.th, NULL, lloop_main, &loops[i]) != 0)
            die(EXIT_RUNTIME, "cannot start event loop %d", i);
    struct lwatch_lines ln = {.path = s->path};
    lines_of(M, &ln);
    struct lwatch *wd = lwatch_start(run, loops, nl, &ln); /* (lwatch.h) */
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    /* every thread_init done (the watchdog's wait, lwatch.c: one that never
     * returns cannot hold a stop): events start */
    if (lwatch_join(wd, &run->loops_ready) < 0)
        return abandon(wd, out, err, errlen);
    pthread_barrier_wait(&run->ready); /* every loop is in it by now: the events start */
    if (lim->warmup_s > 0 || ramps(lim))
        warm_up(run, cs, n, nl, out);
    if (lim->on_window)
        lim->on_window(1, lim->on_window_arg);
    uint64_t t0 = now_ns();
    struct rusage ru0, ru1; /* over the window, as a built-in level's: not the connects */
    getrusage(RUSAGE_SELF, &ru0);
    struct ltick k = {.run = run, .cs = cs, .n = n, .loops = loops, .nl = nl};
    struct ticker_cfg tc = {
        .threads = n,
        .loops = nl,
        .rep = lim->rep,
        .win = &run->pool->win,
        .sum = sum_counts,
        .sum_arg = &k,
        .conn = level_conn_figures,
        .conn_arg = run->pool,
    };
    ticker_open(&k.tk, &tc, t0, &ru0, 1); /* a script counts from before t0 */
    atomic_store(&run->window_state, LLOOP_WIN_OPEN);
    if (lim->time_s > 0)
        atomic_store(&run->pool->win.end, t0 + (uint64_t)(lim->time_s * 1e9));
    int ticking =
        (k.tk.next != UINT64_MAX || k.tk.ck) && pthread_create(&k.th, NULL, tick_main, &k) == 0;
    int joined = lwatch_join(wd, NULL);
    if (ticking) {
        atomic_store(&k.done, 1);
        pthread_join(k.th, NULL);
    }
    if (joined < 0) /* a loop still runs: touch nothing of the run */
        return abandon(wd, out, err, errlen);
    const char *why = lwatch_stop(wd); /* stopped for memory, or a stuck event given up */
    /* the window ended where the last connection's events did (lloop.c),
     * before thread_done and the teardown; if they were over before it
     * opened, it ends now */
    uint64_t t1 = run->ended_ns;
    int open = LLOOP_WIN_OPEN;
    if (atomic_compare_exchange_strong(&run->window_state, &open, LLOOP_WIN_CLOSED)) {
        t1 = now_ns();
        getrusage(RUSAGE_SELF, &ru1);
        if (lim->on_window)
            lim->on_window(0, lim->on_window_arg);
    } else {
        ru1 = run->ended_ru;
    }
    if (ticking) /* the period the window's end reached, if the ticker had not reported it */
        ticker_close(&k.tk, t1);
    out->time_s = (double)(t1 - t0) / 1e9;
    level_result_cpu(out, &ru0, &ru1);
    window_since_ckpt_time(k.tk.ck, t1, &ru1, out); /* counters restart at a checkpoint */
    int rc = failures(cs, n, loops, nl, why, out, err, errlen);
    collect(run->pool, cs, n, loops, nl, k.tk.ck, out);
    ticker_free(&k.tk);
    out->interrupted = stop_asked != 0;
    atomic_store(&stop_win, NULL);
    free_run(run, cs, loops, nl);
    lwatch_free(wd);
    lapi_enter(&mt);
    if (lapi_call(M, "done", 0, rc ? NULL : err, rc ? 0 : errlen) < 0 && rc == 0)
        rc = -1;
    lua_close(M);
    return rc;
}
