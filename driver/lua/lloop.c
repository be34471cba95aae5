/*
 * lloop.c - a few event-loop threads carry all of a scripted run's
 * connections, each connection with its own Lua state (scripts keep
 * per-thread globals) and one statement in flight at most.
 *
 * The one idea: each connection's thread_init, thread_run and thread_done
 * run on a fiber of its own (fiber.h); every database call (lapi_sql.c) starts
 * its statement and switches back to the loop, which steps the statement
 * when its socket is ready and switches to the fiber again with the reply.
 * The script sees sysbench's blocking calls, while one thread waits on the
 * sockets of hundreds of connections with one epoll. A fiber rather than a
 * coroutine because the Lua code above the call is left as it is: LuaJIT's
 * trace of an event runs on past a statement instead of being left at
 * every yield and re-entered on every resume (lapi_prelude.lua).
 *
 * Never prints. What still blocks a loop: connect and reconnect, prepare,
 * and anything the script itself does that blocks (os.execute, a blocking
 * ffi call).
 */
#include <errno.h>
#include <lauxlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "client/evloop.h"
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
    window_warm(&run->win, &c->wc);
    window_leave(&run->win, &c->wc);
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
    window_stop(&c->run->win);
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
 * statement in flight, a --rate arrival, or (DB_DONE) a stage ended. */
static void park(struct lloop_conn *c)
{
    fiber_switch(&c->fib, &c->loop->self);
}

static void conn_wait(struct lapi_thread *t)
{
    park(t->run);
}

/* The connection's fiber: thread_init, a wait for every loop's, thread_run
 * (restarting the event when it says so), thread_done. An abort (the loop
 * gave up on a reply) unwinds the Lua code and skips thread_done. */
static void conn_main(void *arg)
{
    struct lloop_conn *c = arg;
    if (call_fn(c, "thread_init") < 0) {
        c->init_failed = 1;
        fail_lua(c);
        goto end;
    }
    set_stage(c, LLOOP_READY);
    c->a.want = DB_DONE;
    park(c);
    if (c->stage != LLOOP_RUN)
        goto end;
    int rc = call_fn(c, "thread_run");
    while (rc < 0 && restart_event(c))
        rc = lua_pcall(c->L, 2, 0, 0) == 0 ? 0 : -1;
    if (rc < 0 && !c->a.abort) {
        fail_lua(c);
        goto end;
    }
    left_run(c);
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
        park(c);
    }
}

/* Wait for the socket of the statement in flight. The socket stays in the
 * epoll, edge-triggered, while it is the same one waited on in the same
 * direction: the next statement then costs no epoll_ctl (the built-in
 * loops' habit). An edge that comes while the connection is not waiting
 * (a notice, the server going away) wakes the loop once and is dropped,
 * never spins it. force: the socket had data the step left the reply
 * incomplete with, so no new edge may come; the MOD looks at the socket
 * again. A closed socket leaves the epoll by itself, and its number may
 * come back for a new one: after any close (t.closes) the socket is armed
 * again, added when it was gone. */
static int arm(int ep, struct lloop_conn *c, int force)
{
    int fd = c->t.s->ops->fd(c->a.c);
    unsigned evm = (c->a.want == DB_WAIT_WRITE ? EPOLLOUT : EPOLLIN) | EPOLLET;
    if (!force && fd == c->armed_fd && evm == c->armed_ev && c->a.c == c->armed_c &&
        c->t.closes == c->armed_closes)
        return 0;
    struct epoll_event ev = {.events = evm, .data.ptr = c};
    c->armed_fd = fd;
    c->armed_ev = evm;
    c->armed_c = c->a.c;
    c->armed_closes = c->t.closes;
    if (epoll_ctl(ep, EPOLL_CTL_MOD, fd, &ev) == 0)
        return 0;
    if (errno == ENOENT && epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0)
        return 0;
    c->armed_fd = -1;
    char m[96];
    snprintf(m, sizeof m, "cannot wait on the connection's socket: %s", strerror(errno));
    fail(c, m);
    return -1;
}

/* c's statement is back (done or failed) at now. */
static void replied(struct lloop *l, struct lloop_conn *c, uint64_t now)
{
    if (!c->out)
        return;
    c->out = 0;
    window_stall_replied(&l->stall, now, &l->run->win);
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

/* c is free for its next event (LAPI_WAIT_BEGIN): the window decides, as
 * for a built-in connection (client/window_state.h). 1 answered in c->a.go,
 * 0 c waits on its timer first (the ramp's hold, or a --rate arrival that
 * window_arrived answers). */
static int begin(struct lloop *l, struct lloop_conn *c, uint64_t now)
{
    switch (window_begin(&l->run->win, &c->wc, now, &c->wake_at)) {
    case WINDOW_PARK:
        c->a.go = 0;
        return 1;
    case WINDOW_GO:
        c->a.go = 1;
        c->wake_at = 0; /* its latency runs from ev_start */
        return 1;
    case WINDOW_HOLD:
        c->arrival = 0;
        break;
    case WINDOW_ARRIVAL:
        c->arrival = 1;
        break;
    }
    c->timer = 1;
    l->timers++;
    return 0;
}

/* c has a statement out and waits for its reply. */
static int replying(const struct lloop_conn *c)
{
    return c->a.want == DB_WAIT_READ || c->a.want == DB_WAIT_WRITE;
}

/* Run c's fiber until it waits for a reply or a timer (1) or has nothing
 * more to do in this stage (0): thread_run is followed straight by
 * thread_done. */
static int resume(struct lloop *l, int ep, struct lloop_conn *c)
{
    for (;;) {
        step(l, c);
        if (c->a.want == LAPI_WAIT_BEGIN && !c->failed) {
            if (begin(l, c, now_ns()))
                continue;
            return 1;
        }
        if (c->a.want == DB_DONE || c->failed)
            return 0;
        if (!c->out) { /* a statement went out; the clock matters only to the first */
            c->out = 1;
            window_stall_sent(&l->stall, l->stall.waiting ? 0 : now_ns());
        }
        return arm(ep, c, 0) == 0;
    }
}

/* Resume the connections whose timer is due (all of them when the run is
 * ending): a --rate arrival is answered by window_arrived, the ramp's hold
 * asks the window again; the earliest still pending, or 0. */
static uint64_t run_timers(struct lloop *l, int ep, int *active)
{
    uint64_t next = 0, now = now_ns();
    int ending = lrun_ending(l->run);
    for (int i = 0; i < l->n && l->timers > 0; i++) {
        struct lloop_conn *c = l->conns[i];
        if (!c->timer)
            continue;
        if (!ending && c->wake_at > now) {
            if (!next || c->wake_at < next)
                next = c->wake_at;
            continue;
        }
        c->timer = 0;
        l->timers--;
        int answered = 1;
        if (c->arrival) {
            c->arrival = 0;
            c->a.go = window_arrived(&l->run->win, &c->wc, now, c->wake_at) == WINDOW_GO;
        } else {
            answered = begin(l, c, now); /* the ramp's hold: ask again */
        }
        if (answered && !resume(l, ep, c))
            (*active)--;
        now = now_ns();
        /* an event without a database call may already wait for its next arrival */
        if (c->timer && (!next || c->wake_at < next))
            next = c->wake_at;
    }
    return next;
}

/* The wait until `until` (0: a second, so a stop is seen by the connections). */
static uint64_t wait_ns(uint64_t until)
{
    uint64_t now = now_ns();
    if (!until)
        return 1000000000u;
    return until > now ? until - now : 0;
}

/* The run ended a grace ago: events still waiting for their reply are
 * given up (their state is closed with the loop's), counted unfinished. */
static int give_up(struct lloop *l, int ep)
{
    int n = 0;
    for (int i = 0; i < l->n; i++) {
        struct lloop_conn *c = l->conns[i];
        if (c->stage == LLOOP_RUN && replying(c) && !c->failed) {
            c->unfinished = 1;
            left_run(c);
            if (c->out) { /* given up: no reply comes */
                c->out = 0;
                l->stall.waiting--;
            }
            c->a.abort = 1; /* its Lua code unwinds; no thread_done */
            resume(l, ep, c);
            n++;
        }
    }
    return n;
}

/* Until none of the loop's connections waits for a reply or an arrival. */
static void drive(struct lloop *l, int ep, int active)
{
    struct epoll_event evs[64];
    uint64_t ended = 0, give_up_at = UINT64_MAX;
    int gave_up = 0;
    while (active > 0) {
        uint64_t next = l->timers ? run_timers(l, ep, &active) : 0;
        if (active <= 0)
            break;
        if (!gave_up && lrun_ending(l->run)) {
            /* --forced-shutdown's grace; a stop may shorten it */
            uint64_t now = now_ns(),
                     g = evloop_grace_ns(l->run->lim->grace_s, lrun_stopped(l->run));
            if (!ended) {
                ended = now;
                /* a stall that lasts to the window's end counts too */
                window_stall_ended(&l->stall, now, &l->run->win);
            }
            give_up_at = g >= EVLOOP_NO_LIMIT ? UINT64_MAX : ended + g;
            if (now >= give_up_at) {
                active -= give_up(l, ep);
                gave_up = 1; /* thread_done runs on, without a grace */
                if (active <= 0)
                    break;
            }
        }
        if (!gave_up && give_up_at != UINT64_MAX && (!next || give_up_at < next))
            next = give_up_at;
        int n = evloop_wait(ep, evs, 64, wait_ns(next));
        if (n < 0 && errno != EINTR) {
            for (int i = 0; i < l->n; i++)
                if (l->conns[i]->a.want != DB_DONE && !l->conns[i]->failed)
                    fail(l->conns[i], "epoll_wait failed");
            return;
        }
        uint64_t now = n > 0 ? now_ns() : 0; /* one clock read for the batch */
        for (int k = 0; k < n; k++) {
            struct lloop_conn *c = evs[k].data.ptr;
            struct lapi_async *a = &c->a;
            if (!replying(c) || c->failed)
                continue;
            enum db_status w = c->t.s->ops->cont(a->c, &a->e);
            if (w == DB_WAIT_READ || w == DB_WAIT_WRITE) {
                a->want = w;
                if (arm(ep, c, 1) < 0)
                    active--;
                continue;
            }
            a->rc = w == DB_FAILED ? -1 : 0;
            a->want = DB_DONE;
            replied(l, c, now);
            if (!resume(l, ep, c))
                active--;
        }
    }
}

/* Ends every fiber that has not ended (a failed loop, a run stopped
 * before thread_run): its Lua code unwinds, so no state is closed with C
 * frames of its own still on a stack. */
static void end_fibers(struct lloop *l, int ep)
{
    for (int i = 0; i < l->n; i++) {
        struct lloop_conn *c = l->conns[i];
        if (c->fib.map && !c->fib_done) {
            c->a.abort = 1;
            resume(l, ep, c);
        }
    }
}

/* A connection's stack: sysbench's scripts over libpq, connect included,
 * touch 16-20 KB of it (measured); the rest is room for scripts, the
 * sanitizers and other libraries (only the pages touched are memory). */
#define LLOOP_STACK (1024 * 1024)

void *lloop_main(void *arg)
{
    struct lloop *l = arg;
    struct lloop_run *run = l->run;
    if (run->pinned)
        pthread_setaffinity_np(pthread_self(), run->cpus.size, run->cpus.set);
    fiber_self(&l->self);
    int ep = epoll_create1(EPOLL_CLOEXEC), active = 0;
    for (int i = 0; i < l->n; i++) {
        struct lloop_conn *c = l->conns[i];
        c->loop = l;
        if (ep < 0) {
            fail(c, "cannot create an epoll");
            continue;
        }
        /* the script's top level runs on the loop's own stack, so it blocks */
        c->L = lapi_open(&c->t, c->err, sizeof c->err);
        if (!c->L) {
            c->init_failed = 1;
            fail(c, c->err);
            continue;
        }
        if (fiber_create(&c->fib, LLOOP_STACK, conn_main, c) < 0) {
            char m[96];
            snprintf(m, sizeof m, "cannot make the connection's stack: %s", strerror(errno));
            fail(c, m);
            continue;
        }
        c->t.aio = &c->a;
        c->t.wait = conn_wait;
        c->armed_fd = -1;
        set_stage(c, LLOOP_INIT);
        active += resume(l, ep, c);
    }
    drive(l, ep, active);
    int ready = 0;
    for (int i = 0; i < l->n; i++) {
        struct lloop_conn *c = l->conns[i];
        c->in_run = c->stage == LLOOP_READY && !c->failed;
        ready += c->in_run;
    }
    atomic_fetch_add(&run->in_run, ready); /* every loop's, before any event */
    atomic_fetch_add(&run->loops_ready, 1);
    pthread_barrier_wait(&run->ready); /* every loop's thread_init done: measuring starts */
    sched_policy_apply_loop(run->lim->batch_from, l->n); /* as the built-in loops */
    active = 0;
    for (int i = 0; i < l->n; i++) {
        struct lloop_conn *c = l->conns[i];
        if (c->stage == LLOOP_READY && !c->failed) {
            set_stage(c, LLOOP_RUN);
            active += resume(l, ep, c);
        }
    }
    drive(l, ep, active);
    end_fibers(l, ep);
    for (int i = 0; i < l->n; i++) {
        struct lloop_conn *c = l->conns[i];
        db_result_free(&c->a.res); /* before its connection closes with the state */
        if (c->L) {
            lapi_enter(&c->t);
            lua_close(c->L);
            c->L = NULL;
        }
        fiber_destroy(&c->fib); /* nothing when it was never made */
    }
    if (ep >= 0)
        close(ep);
    atomic_fetch_add(&run->loops_done, 1);
    return NULL;
}
