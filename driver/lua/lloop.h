/*
 * lloop.h - a scripted run's connections on a few event-loop threads
 * (lloop.c), and what the run (lrun.c) shares with them. Private to
 * driver/lua.
 */
#ifndef DBSCALE_LLOOP_H
#define DBSCALE_LLOOP_H

#include <pthread.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <sys/resource.h>

#include "client/arrivals.h"
#include "client/window.h"
#include "client/window_state.h"
#include "core/cpulist.h"
#include "core/fiber.h"
#include "stats/hist.h"
#include "lua/lapi.h"
#include "lua/lscript.h"

/* What every loop of one run shares. */
struct lloop_run {
    const struct lscript_limits *lim;
    pthread_barrier_t ready; /* every thread_init done: the loops and the caller */
    /* loops past their thread_inits: the caller polls it (a thread_init
     * that never returns cannot hold a stop) before its own wait */
    atomic_int loops_ready;
    /* the window the connections ask (client/window_state.h): its stop
     * (a signal, a failure), edges, --events counts, ramp, and --rate's
     * one Poisson stream of arrivals a free connection takes the next of
     * (sysbench's one queue served by every thread). Its end is --time's
     * deadline, set once every thread_init is done, while the loops may
     * already run events (a deadline from before the connects would end
     * the first connections' runs before they began); 0 = none yet. */
    struct window_state win;
    struct cpulist cpus; /* --client-cpus; ncpus 0 = anywhere */
    int pinned;
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

/* 1 when the run is ending (a stop, a failure, the deadline): an arrival
 * waited for is then no event. */
int lrun_ending(struct lloop_run *run);
/* 1 when the run was stopped (a signal, a failure), not only over its time. */
int lrun_stopped(struct lloop_run *run);
struct lloop_conn;

enum { LLOOP_INIT, LLOOP_READY, LLOOP_RUN, LLOOP_DONE, LLOOP_END };
enum { LLOOP_WIN_SHUT, LLOOP_WIN_OPEN, LLOOP_WIN_CLOSED };

/* One scripted connection: its own Lua state, which runs thread_init,
 * thread_run and thread_done in turn on the connection's fiber. */
struct lloop_conn {
    struct lapi_thread t; /* t.run points back here */
    struct lapi_async a;
    struct lloop_run *run;
    struct lloop *loop;
    lua_State *L;
    struct fiber fib;
    int fib_done; /* fib (made when fib.map is set) reached its function's end */
    int stage;
    int timer;        /* waits for wake_at (a --rate arrival, or the ramp's hold) */
    int arrival;      /* the timer is an arrival's: window_arrived answers it */
    uint64_t wake_at; /* its arrival: its latency starts there */
    struct hist *lat;
    uint64_t t0, busy_ns, done;
    uint64_t base[SB_CNT_MAX];                /* counters when the warmup ended */
    struct err_count codes[WORKER_MAX_CODES]; /* ignored errors inside the window */
    int ncodes;
    uint64_t lost; /* connections lost inside the window (lrun.c) */
    int failed;
    int init_failed; /* in thread_init (or opening its state): the run never began */
    int in_run;      /* counted in run->in_run */
    int out;         /* a statement out, counted in loop->stall */
    /* warm (the ramp), --events' place, --rate's concurrency (window_state.h) */
    struct window_conn wc;
    int unfinished; /* its event's reply was given up (lloop.c's grace) */
    /* the socket in the loop's epoll as last armed (lloop.c's arm) */
    int armed_fd;
    unsigned armed_ev, armed_closes;
    const struct db_conn *armed_c;
    char err[700];
};

/* How long after the run's end (deadline, stop) a reply still missing is
 * waited for before the event is given up, as the built-in loops do: a hung
 * server cannot hold the run. */
#define LLOOP_GRACE_NS 1000000000ull

struct lloop {
    /* each loop on cache lines of its own (lrun.c allocates them aligned):
     * the stall and watchdog fields below are written at every statement */
    alignas(64) struct lloop_run *run;
    struct lloop_conn **conns;
    struct fiber self; /* the loop thread's own stack, between its connections */
    int n, timers;
    /* statements out and the longest stretch without a reply inside the
     * window, as a built-in loop keeps them (client/window.h); read after
     * the joins */
    struct window_stall stall;
    pthread_t th;
    int started;
    /* for the watchdog (lwatch.c): the connection whose Lua code runs now
     * (NULL while the loop itself does), and a count of the switches */
    struct lloop_conn *_Atomic cur;
    _Atomic unsigned long steps;
};

/* The loop thread: open its connections' states, run every thread_init,
 * wait on run->ready, then thread_run and thread_done, then close them. */
void *lloop_main(void *loop);

#endif
