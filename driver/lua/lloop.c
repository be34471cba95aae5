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
 * thread_init and thread_done run before and after the machine's loop,
 * their statements blocking (sysbench's oltp scripts connect and prepare
 * there, which block anyway). Never prints. What still blocks a loop:
 * connect and reconnect, prepare, thread_init and thread_done, and
 * anything the script itself does that blocks (os.execute, a blocking ffi
 * call).
 */
#include <errno.h>
#include <lauxlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "lua/lloop.h"
#include "core/sched_policy.h"
#include "core/util.h"

/* The watchdog (lwatch.c) reads a connection's stage from its own thread. */
static void set_stage(struct lloop_conn *c, int stage)
{
    __atomic_store_n(&c->stage, stage, __ATOMIC_RELAXED);
}

/* c's events are over (thread_run returned, failed or was given up); the
 * last connection out ends the window, if it is open. */
static void left_run(struct lloop_conn *c)
{
    if (!c->in_run)
        return;
    c->in_run = 0;
    struct lloop_run *run = c->run;
    window_warm(&run->pool->win, &c->conn.wc);
    window_leave(&run->pool->win, &c->conn.wc);
    int open = LLOOP_WIN_OPEN;
    if (atomic_fetch_sub(&run->in_run, 1) == 1 &&
        atomic_compare_exchange_strong(&run->window_state, &open, LLOOP_WIN_CLOSED)) {
        getrusage(RUSAGE_SELF, &run->ended_ru);
        run->ended_ns = now_ns();
        if (run->lim->on_window)
            run->lim->on_window(0, run->lim->on_window_arg);
    }
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
    struct lloop_conn *c = lloop_conn_of(cn);
    c->unfinished = 1;
    left_run(c);
    c->a.abort = 1;
    step(c->loop, c);
}

const struct conn_source lloop_source = {.resume = src_resume, .give_up = src_give_up};

/* The machine's loop is over: a connection it left waiting for its next
 * event (a failure stopped the loop early) is told there is none; each
 * whose run is over runs thread_done; every other fiber unwinds, so no
 * state is closed with C frames of its own still on a stack. */
static void finish(struct lloop *l)
{
    for (int i = 0; i < l->loop.n; i++) {
        struct lloop_conn *c = lloop_conn_of(l->loop.conns[i]);
        if (!c->fib.map || c->fib_done)
            continue;
        if (c->a.want == LAPI_WAIT_BEGIN && !c->a.abort) {
            c->a.go = 0;
            step(l, c);
        }
        if (c->over && !c->fib_done)
            step(l, c);
    }
    for (int i = 0; i < l->loop.n; i++) {
        struct lloop_conn *c = lloop_conn_of(l->loop.conns[i]);
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
    c->loop = l;
    if (l->loop.ep < 0) {
        fail(c, "cannot create an epoll");
        return;
    }
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

void *lloop_main(void *arg)
{
    struct lloop *l = arg;
    struct lloop_run *run = l->run;
    struct pool *p = run->pool;
    if (p->client_ncpus)
        pthread_setaffinity_np(pthread_self(), p->client_set.size, p->client_set.set);
    fiber_self(&l->self);
    l->loop.ep = epoll_create1(EPOLL_CLOEXEC);
    for (int i = 0; i < l->loop.n; i++)
        init_conn(l, lloop_conn_of(l->loop.conns[i]));
    int ready = 0;
    for (int i = 0; i < l->loop.n; i++) {
        struct lloop_conn *c = lloop_conn_of(l->loop.conns[i]);
        c->in_run = c->stage == LLOOP_READY && !c->failed;
        ready += c->in_run;
    }
    atomic_fetch_add(&run->in_run, ready); /* every loop's, before any event */
    atomic_fetch_add(&run->loops_ready, 1);
    pthread_barrier_wait(&run->ready); /* every loop's thread_init done: measuring starts */
    sched_policy_apply_loop(run->lim->batch_from, l->loop.n); /* as the built-in loops */
    for (int i = 0; i < l->loop.n; i++) {
        struct lloop_conn *c = lloop_conn_of(l->loop.conns[i]);
        if (c->stage == LLOOP_READY && !c->failed)
            set_stage(c, LLOOP_RUN);
    }
    if (l->loop.ep >= 0)
        loop_run(&l->loop);
    finish(l);
    for (int i = 0; i < l->loop.n; i++) {
        struct lloop_conn *c = lloop_conn_of(l->loop.conns[i]);
        db_result_free(&c->a.res); /* before its connection closes with the state */
        if (c->L) {
            lapi_enter(&c->t);
            lua_close(c->L);
            c->L = NULL;
        }
        fiber_destroy(&c->fib); /* nothing when it was never made */
    }
    if (l->loop.ep >= 0)
        close(l->loop.ep);
    l->loop.ep = -1;
    atomic_fetch_add(&run->loops_done, 1);
    return NULL;
}
