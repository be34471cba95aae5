/*
 * lwatch.h - the scripted run's watchdog (lwatch.c): Lua code that never
 * gives its loop back after the run ended, or that eats the machine's
 * memory, is given up (an interpreted one), or the run is abandoned with
 * an error naming the script and the line, instead of holding dbscale past
 * --time and the stop signals. Private to driver/lua.
 */
#ifndef DBSCALE_LWATCH_H
#define DBSCALE_LWATCH_H

#include <stdatomic.h>

#include "lua/lloop.h"

/* The script and where its functions are defined, for the message. */
struct lwatch_lines {
    const char *path;
    int thread_init, event, thread_done; /* 0 = unknown */
};

struct lwatch;

/* Watch the run's loops from a thread of its own, till lwatch_stop. */
struct lwatch *lwatch_start(struct lloop_run *run, struct lloop *loops, int nl,
                            const struct lwatch_lines *ln);
/* 1 once a loop was abandoned: it still runs, and uses the run's memory,
 * so the caller frees nothing of the run and the process should end soon
 * (pool_run asks it, conn_source.abandoned, and then returns at once). */
int lwatch_abandoned(struct lwatch *x);
/* Stop watching: NULL, or why the run was stopped or abandoned. */
const char *lwatch_stop(struct lwatch *x);
void lwatch_free(struct lwatch *x);

#endif
