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
 * EVLOOP_FOREVER: until an event, with no timer at all). A wait with a
 * timeout arms a kernel timer and cancels it at every wake-up: at one
 * connection that was 4% of the client's CPU per transaction (a 16-statement
 * read-only one, PostgreSQL, 9 interleaved runs: 0.96 of the timed wait's,
 * docs/performance.md), which sysbench's poll without a timeout does not pay. */
#define EVLOOP_FOREVER UINT64_MAX
int evloop_wait(int ep, struct epoll_event *evs, int max, uint64_t ns);

/* How long a loop waits at now (ns, for evloop_wait): until wake (its own
 * earliest timer, timer, or the window's end or the give-up, whichever is
 * first), at most 50 ms; EVLOOP_FOREVER when it has no timer of its own,
 * wake is further than 50 ms and it can be kicked (what else may end the
 * wait comes as a kick, client/loop.c). */
#define EVLOOP_CAP_NS 50000000ull
uint64_t evloop_wait_ns(uint64_t now, uint64_t timer, uint64_t wake, int kickable);

#endif
