/*
 * lloop.c - a scripted run's connections as the connection machine's
 * (client/conn.c, client/loop.c), each with its own Lua state (scripts
 * keep per-thread globals) and one statement in flight at most.
 *
 * The one idea: each connection's thread_init, thread_run and thread_done
 * run on a fiber of its own (fiber.h), which is the machine's statement
 * source (conn_source): every database call (lapi_sql.c) starts its
 * statement and switches back to the loop, which waits on the socket,
 * steps the statement to its reply and switches to the fiber again with
 * it; between events the fiber switches back too, and the machine asks
 * the window (window_begin) whether another begins, as for a built-in
 * connection. The script sees sysbench's blocking calls, while one thread
 * waits on the sockets of hundreds of connections with one epoll. A fiber
 * rather than a coroutine because the Lua code above the call is left as
 * it is: LuaJIT's trace of an event runs on past a statement instead of
 * being left at every yield and re-entered on every resume
 * (lapi_prelude.lua).
 *
 * thread_init and thread_done run before the level's start gate and after
 * the machine's loop (the source's loop_begin and loop_end hooks), their
 * statements blocking (sysbench's oltp scripts connect and prepare there,
 * which block anyway). The level itself (warmup, window, reports,
 * collection) is pool_run's, as for a built-in mix; the script's own
 * statement counters reach it through the counts hook. Never prints.
 * What still blocks a loop: connect and reconnect, prepare, thread_init
 * and thread_done, and anything the script itself does that blocks
 * (os.execute, a blocking ffi call).
 */
#include <errno.h>
#include <lauxlib.h>
#include <string.h>

#include "lua/lloop.h"
#include "client/level.h"
#include "lua/lwatch.h"
#include "core/util.h"

/* The watchdog (lwatch.c) reads a connection's stage from its own thread. */
static void set_stage(struct lloop_conn *c, int stage)
{
    __atomic_store_n(&c->stage, stage, __ATOMIC_RELAXED);
}

/* c's events are over (thread_run returned, failed or was given up); the
 * last connection out ends a window still open (level_conn_over). */
static void left_run(struct lloop_conn *c)
{
    if (!c->in_run)
        return;
    c->in_run = 0;
    struct pool *p = c->run->pool;
    window_warm(&p->win, &c->conn.wc);
    window_leave(&p->win, &c->conn.wc);
    level_conn_over(p);
}

static void fail(struct lloop_conn *c, const char *msg)
{
    left_run(c);
    c->failed = 1;
    set_stage(c, LLOOP_END);
    if (msg != c->err)
        snprintf(c->err, sizeof c->err, "%s", msg);
    window_stop(&c->run->pool->win);
}

/* The error at the top of c's stack, as lapi_pcall words it. */
static void fail_lua(struct lloop_conn *c)
{
    const char *m = lua_tostring(c->L, -1);
    if (!m && lua_istable(c->L, -1)) {
        lua_getfield(c->L, -1, "sql_errmsg");
        m = lua_tostring(c->L, -1);
    }
    fail(c, m ? m : "(an error that is not a string)");
}

/* thread_run failed with the error at the top of the stack. If it is one
 * the prelude's thread_run restarts the event for (sysbench.error.
 * RESTART_EVENT, raised by an ignorable SQL error or a reconnect), leave the
 * prelude's restart function and its arguments (thread id, the error) on
 * the stack: it calls before_restart_event and runs the same event again.
 * 0 if the error is anything else, or thread_run is the script's own (then
 * every error ends the run, as sysbench's would). */
static int restart_event(struct lloop_conn *c)
{
    lua_State *L = c->L;
    if (c->a.abort || !lua_istable(L, -1))
        return 0;
    /* raw reads: no metamethod of the script's runs here */
    lua_pushliteral(L, "errcode");
    lua_rawget(L, -2);
    int restart = lua_type(L, -1) == LUA_TNUMBER && lua_tonumber(L, -1) == 1;
    lua_pop(L, 1);
    lua_pushvalue(L, LUA_GLOBALSINDEX);
    lua_pushliteral(L, "thread_run");
    lua_rawget(L, -2);
    lua_getfield(L, LUA_REGISTRYINDEX, "dbscale.thread_run");
    restart = restart && lua_rawequal(L, -1, -2);
    lua_pop(L, 3);
    if (!restart)
        return 0;
    lua_getfield(L, LUA_REGISTRYINDEX, "dbscale.restart");
    lua_pushnumber(L, c->t.tid);
    lua_pushvalue(L, -3); /* the error */
    lua_remove(L, -4);
    return 1;
}

/* Call global fn(thread id): 0 done (or no such function), -1 failed with
 * the error on the stack. */
static int call_fn(struct lloop_conn *c, const char *fn)
{
    lua_State *L = c->L;
    lua_settop(L, 0);
    lua_getglobal(L, fn);
    if (!lua_isfunction(L, -1)) {
        lua_settop(L, 0);
        return 0;
    }
    lua_pushnumber(L, c->t.tid);
    return lua_pcall(L, 1, 0, 0) == 0 ? 0 : -1;
}

/* Back to the loop until it switches here again. a.want says why: a
 * statement in flight, the next event (LAPI_WAIT_BEGIN), or (DB_DONE) a
 * stage ended. */
static void back_to_loop(struct lloop_conn *c)
{
    fiber_switch(&c->fib, &c->loop->self);
}

static void conn_wait(struct lapi_thread *t)
{
    back_to_loop(t->run);
}

/* The connection's fiber: thread_init, a wait for every loop's, thread_run
 * (restarting the event when it says so) on the machine, a wait for the
 * machine's loop to end, thread_done. An abort (the loop gave up on a
 * reply, or stopped early) unwinds the Lua code and skips thread_done.
 * Outside thread_run the statements block (t.aio NULL). */
static void conn_main(void *arg)
{
    struct lloop_conn *c = arg;
    c->t.aio = NULL;
    if (call_fn(c, "thread_init") < 0) {
        c->init_failed = 1;
        fail_lua(c);
        goto end;
    }
    set_stage(c, LLOOP_READY);
    c->a.want = DB_DONE;
    back_to_loop(c);
    if (c->stage != LLOOP_RUN || c->a.abort)
        goto end;
    c->t.aio = &c->a;
    int rc = call_fn(c, "thread_run");
    while (rc < 0 && restart_event(c))
        rc = lua_pcall(c->L, 2, 0, 0) == 0 ? 0 : -1;
    if (rc < 0 && !c->a.abort) {
        fail_lua(c);
        goto end;
    }
    left_run(c);
    c->t.aio = NULL;
    c->over = 1;
    c->a.want = DB_DONE;
    back_to_loop(c); /* the machine parks the connection; lloop_main calls again */
    if (!c->a.abort && !c->failed) {
        set_stage(c, LLOOP_DONE);
        if (call_fn(c, "thread_done") < 0 && !c->a.abort)
            fail_lua(c);
    }
end:
    lua_settop(c->L, 0);
    left_run(c);
    set_stage(c, LLOOP_END);
    c->fib_done = 1;
    for (;;) {
        c->a.want = DB_DONE;
        back_to_loop(c);
    }
}

/* Switch to c's fiber until it parks again, telling the watchdog. */
static void step(struct lloop *l, struct lloop_conn *c)
{
    lapi_enter(&c->t);
    unsigned long s = atomic_load_explicit(&l->steps, memory_order_relaxed);
    atomic_store_explicit(&l->cur, c, memory_order_relaxed);
    atomic_store_explicit(&l->steps, s + 1, memory_order_relaxed);
    fiber_switch(&l->self, &c->fib);
    atomic_store_explicit(&l->cur, NULL, memory_order_relaxed);
    atomic_store_explicit(&l->steps, s + 2, memory_order_relaxed);
}

/* c has a statement out and waits for its reply. */
static int replying(const struct lloop_conn *c)
{
    return c->a.want == DB_WAIT_READ || c->a.want == DB_WAIT_WRITE;
}

/* conn_source.resume: the fiber, with the window's answer or its
 * statement's reply, until it waits again. */
static int src_resume(struct loop *lp, struct conn *cn, int answer)
{
    (void)lp;
    struct lloop_conn *c = lloop_conn_of(cn);
    if (!c->fib.map || c->fib_done)
        return DB_DONE;
    if (c->a.want == LAPI_WAIT_BEGIN)
        c->a.go = answer;
    else if (replying(c))
        c->a.rc = answer == DB_FAILED ? -1 : 0;
    step(c->loop, c);
    if (c->failed || c->fib_done)
        return DB_DONE;
    if (c->a.want == LAPI_WAIT_BEGIN)
        return CONN_NEXT;
    if (replying(c)) {
        cn->db = c->a.c;
        return c->a.want;
    }
    return DB_DONE;
}

/* conn_source.give_up: the reply is not waited for; its Lua code unwinds
 * (no thread_done), and the event is counted unfinished. */
static void src_give_up(struct loop *lp, struct conn *cn)
{
    (void)lp;
    struct lloop_conn *c = lloop_conn_of(cn); /* the loop counts it unfinished */
    left_run(c);
    c->a.abort = 1;
    step(c->loop, c);
}

/* The machine's loop is over: a connection it left waiting for its next
 * event (a failure stopped the loop early) is told there is none; each
 * whose run is over runs thread_done; every other fiber unwinds, so no
 * state is closed with C frames of its own still on a stack. */
static void finish(struct lloop *l)
{
    for (int i = 0; i < l->loop->n; i++) {
        struct lloop_conn *c = lloop_conn_of(l->loop->conns[i]);
        if (!c->fib.map || c->fib_done)
            continue;
        if (c->a.want == LAPI_WAIT_BEGIN && !c->a.abort) {
            c->a.go = 0;
            step(l, c);
        }
        if (c->over && !c->fib_done)
            step(l, c);
    }
    for (int i = 0; i < l->loop->n; i++) {
        struct lloop_conn *c = lloop_conn_of(l->loop->conns[i]);
        if (c->fib.map && !c->fib_done) {
            c->a.abort = 1;
            step(l, c);
        }
    }
}

/* A connection's stack: sysbench's scripts over libpq, connect included,
 * touch 16-20 KB of it (measured); the rest is room for scripts, the
 * sanitizers and other libraries (only the pages touched are memory). */
#define LLOOP_STACK (1024 * 1024)

/* Open c's state (the script's top level runs on the loop's own stack)
 * and its fiber, and run its thread_init. */
static void init_conn(struct lloop *l, struct lloop_conn *c)
{
    c->L = lapi_open(&c->t, c->err, sizeof c->err);
    if (!c->L) {
        c->init_failed = 1;
        fail(c, c->err);
        return;
    }
    if (fiber_create(&c->fib, LLOOP_STACK, conn_main, c) < 0) {
        char m[96];
        snprintf(m, sizeof m, "cannot make the connection's stack: %s", strerror(errno));
        fail(c, m);
        return;
    }
    c->t.wait = conn_wait;
    set_stage(c, LLOOP_INIT);
    step(l, c);
}

/* conn_source.loop_begin: the loop's connections' states opened and their
 * thread_init run, before the start gate; those ready will run. */
static void src_loop_begin(struct loop *lp)
{
    struct lloop_run *run = lp->pool->src_arg;
    struct lloop *l = &run->loops[lp->idx];
    l->loop = lp;
    l->run = run;
    fiber_self(&l->self);
    for (int i = 0; i < lp->n; i++) {
        struct lloop_conn *c = lloop_conn_of(lp->conns[i]);
        c->loop = l;
        init_conn(l, c);
    }
    int ready = 0;
    for (int i = 0; i < lp->n; i++) {
        struct lloop_conn *c = lloop_conn_of(lp->conns[i]);
        c->in_run = c->stage == LLOOP_READY && !c->failed;
        if (c->in_run)
            set_stage(c, LLOOP_RUN);
        ready += c->in_run;
    }
    atomic_fetch_add(&run->pool->running, ready); /* every loop's, before the gate */
}

/* conn_source.loop_end: thread_done for those whose run is over, then
 * every state closed. */
static void src_loop_end(struct loop *lp)
{
    struct lloop_run *run = lp->pool->src_arg;
    struct lloop *l = &run->loops[lp->idx];
    finish(l);
    for (int i = 0; i < lp->n; i++) {
        struct lloop_conn *c = lloop_conn_of(lp->conns[i]);
        lp->unfinished += (uint64_t)__atomic_load_n(&c->stuck, __ATOMIC_RELAXED);
        db_result_free(&c->a.res); /* before its connection closes with the state */
        if (c->L) {
            lapi_enter(&c->t);
            lua_close(c->L);
            c->L = NULL;
        }
        fiber_destroy(&c->fib); /* nothing when it was never made */
    }
}

/* conn_source.window_open: after a warmup or the ramp, the counters so far
 * become each connection's baseline (a transaction counts only inside the
 * window, so it needs none). */
static void src_window_open(struct pool *p)
{
    struct lloop_run *run = p->src_arg;
    if (!run->base_at_open)
        return;
    for (int i = 0; i < run->n; i++)
        for (int j = 0; j < SB_CNT_MAX; j++)
            if (j != SB_CNT_TRX)
                run->cs[i].base[j] = lapi_counter(&run->cs[i].t, j);
}

/* conn_source.counts: the statements the scripts counted, since their
 * baselines. */
static void src_counts(struct pool *p, struct window_counts *w)
{
    struct lloop_run *run = p->src_arg;
    uint64_t c[SB_CNT_MAX] = {0};
    for (int i = 0; i < run->n; i++)
        for (int j = 0; j < SB_CNT_MAX; j++)
            c[j] += lapi_counter(&run->cs[i].t, j) - run->cs[i].base[j];
    w->reads += c[SB_CNT_READ];
    w->writes += c[SB_CNT_WRITE];
    w->others += c[SB_CNT_OTHER];
    w->errors += c[SB_CNT_ERROR];
    w->reconnects += c[SB_CNT_RECONNECT];
}

static int src_abandoned(struct pool *p)
{
    struct lloop_run *run = p->src_arg;
    return run->wd && lwatch_abandoned(run->wd);
}

const struct conn_source lloop_source = {
    .resume = src_resume,
    .give_up = src_give_up,
    .loop_begin = src_loop_begin,
    .loop_end = src_loop_end,
    .window_open = src_window_open,
    .counts = src_counts,
    .abandoned = src_abandoned,
};

/* ---- the script's calls into the machine (lapi_thread's callbacks) ---- */

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
    conn_event_start(c->loop->loop, &c->conn);
}

static void ev_stop(struct lapi_thread *t)
{
    struct lloop_conn *c = t->run;
    window_leave(&c->run->pool->win, &c->conn.wc);
    if (conn_event_done(c->loop->loop, &c->conn, now_ns()))
        lapi_count(t, SB_CNT_TRX); /* else --warmup-time or the ramp: run, not counted */
}

/* Errors by code, as the built-in loops count them (in the window only),
 * into the loop's counts (its thread runs the script). */
static void on_ignored(struct lapi_thread *t, const char *code)
{
    struct lloop_conn *c = t->run;
    struct loop *l = c->loop->loop;
    if (window_counted(&c->run->pool->win, now_ns()))
        err_count_add(l->codes, &l->ncodes, code, 1);
}

/* A connection lost in the window, as the built-in loops count one. */
static void on_lost(struct lapi_thread *t)
{
    struct lloop_conn *c = t->run;
    if (window_counted(&c->run->pool->win, now_ns()))
        pool_inc(&c->loop->loop->lost, 1);
}

/* The script closes one of its connections: the machine stops watching its
 * socket first (before the state's loop exists, nothing watches). */
static void on_close(struct lapi_thread *t, const struct db_conn *db)
{
    struct lloop_conn *c = t->run;
    if (c->loop)
        conn_unwatch_db(c->loop->loop, &c->conn, db);
}

void lloop_conn_init(struct lloop_run *run, const struct lapi_script *s, int i)
{
    struct lloop_conn *c = &run->cs[i];
    c->run = run;
    lapi_thread_seed(&c->t, s, i);
    c->t.run = c;
    c->t.more = more;
    c->t.ev_start = ev_start;
    c->t.ev_stop = ev_stop;
    c->t.on_ignored = on_ignored;
    c->t.on_lost = on_lost;
    c->t.on_close = on_close;
    c->conn.idx = i;
    c->conn.err = &c->a.e; /* a reply's error, for the script */
    run->pool->conns[i] = &c->conn;
}
