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
#include <sys/resource.h>

#include "client/pool_internal.h"
#include "core/fiber.h"
#include "stats/hist.h"
#include "lua/lapi.h"
#include "lua/lscript.h"

/* What every loop of one run shares. */
struct lloop_run {
    const struct lscript_limits *lim;
    /* the connection machine's pool (client/pool_internal.h): its window
     * (the stop, edges, --events counts, the ramp, --rate's one Poisson
     * stream, and sysbench's end rule: tail), --client-cpus, the give-up;
     * its connections are the run's (conn_source lloop_source). The
     * window's end is --time's deadline, set once every thread_init is
     * done (a deadline from before the connects would end the first
     * connections' runs before they began); 0 = none yet. */
    struct pool *pool;
    pthread_barrier_t ready; /* every thread_init done: the loops and the caller */
    /* loops past their thread_inits: the caller polls it (a thread_init
     * that never returns cannot hold a stop) before its own wait */
    atomic_int loops_ready;
    atomic_int loops_done; /* loops that have finished every connection */
    /* connections still in thread_run: the last one out ends the window
     * (ended_ns, ended_ru, lim->on_window), as a built-in level's ends
     * with its events; thread_done and the states' teardown come after
     * it. window_state: LLOOP_WIN_*, moved on by compare-and-swap, so the
     * window closes once, from the loop or (events over before it opened)
     * from the caller after the joins */
    atomic_int in_run, window_state;
    uint64_t ended_ns; /* read after the joins */
    struct rusage ended_ru;
};

/* 1 when the run is ending (a stop, a failure, the deadline). */
int lrun_ending(struct lloop_run *run);
/* 1 when the run was stopped (a signal, a failure), not only over its time. */
int lrun_stopped(struct lloop_run *run);

enum { LLOOP_INIT, LLOOP_READY, LLOOP_RUN, LLOOP_DONE, LLOOP_END };
enum { LLOOP_WIN_SHUT, LLOOP_WIN_OPEN, LLOOP_WIN_CLOSED };

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
    uint64_t base[SB_CNT_MAX];                /* counters when the warmup ended */
    struct err_count codes[WORKER_MAX_CODES]; /* ignored errors inside the window */
    int ncodes;
    uint64_t lost; /* connections lost inside the window (lrun.c) */
    int failed;
    int init_failed; /* in thread_init (or opening its state): the run never began */
    int in_run;      /* counted in run->in_run */
    int unfinished;  /* its event's reply was given up (the machine's grace) */
    char err[700];
};

/* How long after the run's end stuck Lua code is waited for before the
 * watchdog unwinds it (lwatch.c), as the machine waits for a reply. */
#define LLOOP_GRACE_NS 1000000000ull

struct lloop {
    /* the machine's loop (client/loop.c): its epoll, timers, stall, and
     * the events' count and latencies. Each loop is on cache lines of its
     * own (lrun.c allocates them aligned). */
    struct loop loop;
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

/* The loop thread: open its connections' states and run every
 * thread_init, wait on run->ready, run the machine's loop (client/loop.c)
 * over them, then every thread_done, then close them. */
void *lloop_main(void *loop);

#endif
