/*
 * evloop.c - how many event loops, and how they wait (evloop.h).
 *
 * The one idea: a loop per client CPU, each waiting to the nanosecond,
 * serves both kinds of connection (built-in mixes and Lua scripts); the
 * reasons, measured, are below. Never blocks longer than it is asked to.
 */
#include "client/evloop.h"

#include <errno.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

/* ncpus, or every online CPU when 0 or less; never fewer than 1. */
static int cpus_or_online(int ncpus)
{
    if (ncpus <= 0)
        ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
    return ncpus < 1 ? 1 : ncpus;
}

int evloop_count(int configured, int ncpus, int conns)
{
    int nl = configured;
    if (nl <= 0) {
        /* One loop per client CPU (fewer with fewer connections). A loop
         * per connection wakes once per reply; a loop shared by the
         * connections of one CPU often serves several replies per wake-up,
         * and its CPU is never idle while the others are. One loop for
         * everything is worse: to the scheduler it is one task among the
         * server's busy backends and all its connections stall while it
         * waits its turn. Measured here (2 CPUs, oltp_read_only, 4
         * connections, PostgreSQL): 2 loops 3530 TPS and 134-143 us of
         * client CPU per transaction, 4 loops 3100 TPS and 163 us, 1 loop
         * 2450-2530 TPS and 173-181 us. A thread per connection (what
         * sysbench does; --client-loops=1024) was measured against these
         * loops at every point of engines x {point select, read-only,
         * read-write} x {1..1024} connections, paired with sysbench
         * (docs/performance.md, "How connections map to threads"): no
         * better anywhere, so both engines keep the loops at every count. */
        nl = cpus_or_online(ncpus);
    }
    return nl > conns ? conns : nl;
}

/* epoll_pwait2 waits to the nanosecond (Poisson arrivals need better than
 * milliseconds); kernels before 5.11 and valgrind lack it, so fall back to
 * epoll_wait rounded up to the next millisecond. */
uint64_t evloop_grace_ns(double grace_s, int stopped)
{
    uint64_t ns = grace_s > 0   ? (uint64_t)(grace_s * 1e9)
                  : grace_s < 0 ? EVLOOP_NO_LIMIT
                                : EVLOOP_GRACE_NS;
    return stopped && ns > EVLOOP_GRACE_NS ? EVLOOP_GRACE_NS : ns;
}

int evloop_wait(int ep, struct epoll_event *evs, int max, uint64_t ns)
{
    static _Atomic int no_pwait2;
    if (ns == EVLOOP_FOREVER)
        return epoll_wait(ep, evs, max, -1);
    struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
    if (!atomic_load_explicit(&no_pwait2, memory_order_relaxed)) {
        int n = epoll_pwait2(ep, evs, max, &ts, NULL);
        if (n >= 0 || errno != ENOSYS)
            return n;
        atomic_store_explicit(&no_pwait2, 1, memory_order_relaxed);
    }
    uint64_t ms = (ns + 999999) / 1000000;
    return epoll_wait(ep, evs, max, ms > 1000000 ? 1000000 : (int)ms);
}

uint64_t evloop_wait_ns(uint64_t now, uint64_t wake, int ticking)
{
    if (wake <= now)
        return 0;
    if (wake - now <= EVLOOP_TICK_NS)
        return wake - now;
    return ticking ? EVLOOP_FOREVER : EVLOOP_TICK_NS;
}

int evloop_ticks(int loops, int ncpus)
{
    return loops <= EVLOOP_TICK_LOOPS_PER_CPU * cpus_or_online(ncpus);
}
