/*
 * evloop.h - what the built-in loops (client/loop.c) and the Lua loops
 * (lua/lloop.c) share about being an epoll event loop: how many of them a
 * level runs, and the wait to the nanosecond.
 */
#ifndef DBSCALE_EVLOOP_H
#define DBSCALE_EVLOOP_H

#include <stdint.h>
#include <sys/epoll.h>

/* Loops for conns connections: configured when > 0, else one per client CPU
 * (ncpus; 0: every online CPU); never more than conns, never fewer than 1. */
int evloop_count(int configured, int ncpus, int conns);

/* After the end, how long work still waiting for a reply may take before
 * it is given up: --forced-shutdown's grace_s (0 = EVLOOP_GRACE_NS, < 0 =
 * EVLOOP_NO_LIMIT), never more than EVLOOP_GRACE_NS once stopped. The
 * default is long enough for any sane OLTP reply, short enough that a hung
 * server cannot hold a level (or a signal) for more than about a second. */
#define EVLOOP_GRACE_NS 1000000000ull
#define EVLOOP_NO_LIMIT (UINT64_MAX / 4) /* leaves room to add a start time */
uint64_t evloop_grace_ns(double grace_s, int stopped);

/* epoll_pwait2 for at most ns nanoseconds (0: only what is ready;
 * EVLOOP_FOREVER: until an event, with no timeout at all). A wait with a
 * timeout arms a kernel timer and cancels it at every wake-up, which
 * sysbench's poll without one does not pay (docs/performance.md, "One
 * connection"). */
#define EVLOOP_FOREVER UINT64_MAX
int evloop_wait(int ep, struct epoll_event *evs, int max, uint64_t ns);

/* A loop looks at least every EVLOOP_TICK_NS even when nothing moves (a
 * stop, the window's end, a give-up). With a tick (a periodic timerfd in
 * its epoll, armed once a level) it waits for that with no timeout; only
 * what is due sooner gets a timed wait. How long the loop waits at now
 * for wake (the earliest of its own timers, the window's end and the
 * give-up): 0 when due, wake - now when within a tick, else
 * EVLOOP_FOREVER with a tick, or the tick's length without one. */
#define EVLOOP_TICK_NS 50000000ull
uint64_t evloop_wait_ns(uint64_t now, uint64_t wake, int ticking);

/* Whether a level's loops get a tick: 1 when there are at most
 * EVLOOP_TICK_LOOPS_PER_CPU of them per client CPU (ncpus; 0: every online
 * CPU), as the default mapping always has (one a CPU). A tick wakes its loop
 * 20 times a second even when replies would; a busy loop waits thousands of
 * times a second and saves a timer at each, but a thread per connection at
 * hundreds of connections waits a few dozen times a second, where the
 * ticks' wake-ups cost more than the timers: 1024 loops on 2 CPUs,
 * PostgreSQL point selects, 2 runs of the whole process each: 430K and 340K
 * context switches and 3465 and 2324 us of client CPU a transaction with
 * ticks, 234K and 195K and 2210 and 1925 us with timed waits (at 256 loops
 * the two were within the noise). So many loops keep the timed waits. */
#define EVLOOP_TICK_LOOPS_PER_CPU 4
int evloop_ticks(int loops, int ncpus);

#endif
