/*
 * level.h - one level's timekeeping and collection (level.c), used by
 * pool_run in worker.c for both workload kinds; a script's connections
 * (lua/lloop.c) tell it where their runs end. Private to driver/client
 * and lua/.
 */
#ifndef DBSCALE_LEVEL_H
#define DBSCALE_LEVEL_H

#include "client/pool_internal.h"

/* Connection i of the pool's events and busy time this level, for
 * window.c's fairness (arg: the pool); readable while the level runs. */
void level_conn_figures(void *arg, int i, uint64_t *events, uint64_t *busy_ns);
/* The timing thread while the loops run: the window's edges (rusage,
 * on_window), interval lines; returns 0 when every loop has been joined,
 * with out's time and client CPU filled; -1 at once when a source's loop
 * was abandoned (conn_source.abandoned). */
int level_keep_time(struct pool *p, struct loop *loops, int nl, struct level_result *out);
/* A source's connection ended its run (one of p->running): with the tail
 * rule (window_state.tail) the last one out closes the window there, from
 * its loop, before its thread_done and teardown. */
void level_conn_over(struct pool *p);
/* Sum the loops' counters into out: counts, codes, the fatal message,
 * fairness, unfinished and the disturbed flag. */
void level_collect(struct pool *p, struct loop *loops, int nl, struct level_result *out);

#endif
