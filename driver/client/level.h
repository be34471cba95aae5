/*
 * level.h - one level's timekeeping and collection (level.c), used by
 * pool_run in worker.c. Private to driver/client.
 */
#ifndef DBSCALE_LEVEL_H
#define DBSCALE_LEVEL_H

#include "client/pool_internal.h"

/* The timing thread while the loops run: the window's edges (rusage,
 * on_window), interval lines, the give-up after the grace; returns when
 * every loop has been joined, with out's time and client CPU filled. */
void level_keep_time(struct pool *p, struct loop *loops, int nl, struct level_result *out);
/* Sum the loops' counters into out: counts, codes, the fatal message,
 * fairness, unfinished and the disturbed flag. */
void level_collect(struct pool *p, struct loop *loops, int nl, struct level_result *out);

#endif
