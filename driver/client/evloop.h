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

/* epoll_pwait2 for at most ns nanoseconds (0: only what is ready). */
int evloop_wait(int ep, struct epoll_event *evs, int max, uint64_t ns);

#endif
