/*
 * lloop.h - a scripted run's connections: the connection machine's
 * (client/conn.c), carried by its loops (client/loop.c), with a Lua
 * fiber as their statement source (lloop.c); and what the run (lrun.c)
 * shares with them. Private to driver/lua.
 */
#ifndef DBSCALE_LLOOP_H
#define DBSCALE_LLOOP_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>

#include "client/pool_internal.h"
#include "core/fiber.h"
#include "stats/hist.h"
#include "lua/lapi.h"

struct lloop;
struct lloop_conn;
struct lwatch;

/* What every loop of one run shares. */
struct lloop_run {
    /* the connection machine's pool (client/pool_internal.h), which runs
     * the level (pool_run): its window (the stop, edges, --events counts,
     * the ramp, --rate's one Poisson stream, and sysbench's end rule:
     * tail), --client-cpus, the give-up; its connections are the run's
     * (conn_source lloop_source, src_arg this run) */
    struct pool *pool;
    struct lloop_conn *cs; /* the run's n connections, pool->conns in order */
    int n;
    struct lloop *loops; /* one per machine loop (struct loop.idx) */
    int nl;
    /* the window opens after a warmup or the ramp: the counters it had
     * then are each connection's baseline (else they count from the
     * first event) */
    int base_at_open;
    struct lwatch *wd; /* the watchdog (lwatch.h), for the abandoned hook */
};

enum { LLOOP_INIT, LLOOP_READY, LLOOP_RUN, LLOOP_DONE, LLOOP_END };

/* One scripted connection: the machine's connection (client/conn.c) whose
 * statements come from its own Lua state, which runs thread_init,
 * thread_run and thread_done in turn on the connection's fiber. */
struct lloop_conn {
    struct conn conn;     /* the machine's: window, timers, socket, its events */
    struct lapi_thread t; /* t.run points back here */
    struct lapi_async a;
    struct lloop_run *run;
    struct lloop *loop;
    lua_State *L;
    struct fiber fib;
    int fib_done; /* fib (made when fib.map is set) reached its function's end */
    int over;     /* thread_run is over: the fiber waits to run thread_done */
    int stage;
    uint64_t base[SB_CNT_MAX]; /* counters when the window opened (base_at_open) */
    int failed;
    int init_failed; /* in thread_init (or opening its state): the run never began */
    int in_run;      /* counted in pool->running */
    int stuck;       /* its event was given up by the watchdog (lwatch.c): unfinished */
    char err[700];
};

/* How long after the run's end stuck Lua code is waited for before the
 * watchdog unwinds it (lwatch.c), as the machine waits for a reply. */
#define LLOOP_GRACE_NS 1000000000ull

/* The script's side of one of the machine's loops, on cache lines of its
 * own (lrun.c allocates them aligned). */
struct lloop {
    alignas(64) struct loop *loop; /* the machine's (client/loop.c) */
    struct lloop_run *run;
    struct fiber self; /* the loop thread's own stack, between its connections */
    /* for the watchdog (lwatch.c): the connection whose Lua code runs now
     * (NULL while the loop itself does), and a count of the switches */
    struct lloop_conn *_Atomic cur;
    _Atomic unsigned long steps;
};

/* The scripted connections' statement source for the machine. */
extern const struct conn_source lloop_source;

static inline struct lloop_conn *lloop_conn_of(struct conn *c)
{
    return (struct lloop_conn *)((char *)c - offsetof(struct lloop_conn, conn));
}

/* Connection i of the run: its lapi thread seeded from the script, its
 * callbacks the machine's (events, errors, closes), and its place in the
 * pool. */
void lloop_conn_init(struct lloop_run *run, const struct lapi_script *s, int i);

#endif
