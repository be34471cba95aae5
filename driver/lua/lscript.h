/*
 * lscript.h - running a sysbench Lua script: its options, its commands
 * (prepare, cleanup, its own, PARALLEL_COMMAND once per thread) and run.
 *
 * run: every connection its own Lua state, whose thread_init / thread_run /
 * thread_done run on a fiber that waits inside each database call, a few
 * event loops carrying them all (lrun.c, lloop.c). Other commands: a thread
 * per connection with blocking calls (sysbench's own shape).
 * The figures come back as a struct level_result, so a scripted run is
 * reported by the same code as a built-in one.
 */
#ifndef DBSCALE_LSCRIPT_H
#define DBSCALE_LSCRIPT_H

#include <stdio.h>

#include "lua/lapi.h"
#include "core/options.h"
#include "client/worker.h"

/* The script's own options (sysbench.cmdline.options) that the base table
 * does not already have, as optdefs ('_' spelled '-'). */
struct lscript_opts {
    struct optdef *defs;
    size_t n;
    char **strs; /* storage of names, defaults, help */
    size_t nstrs;
};
int lscript_options(const struct lapi_script *s, const struct optdef *base, size_t nbase,
                    struct lscript_opts *out, char *err, size_t errlen);
void lscript_opts_free(struct lscript_opts *x);

/* 1 if the script defines command cmd (in sysbench.cmdline.commands or as a
 * global function), 0 if not, -1 with err if the script fails to load. */
int lscript_has_command(const struct lapi_script *s, const char *cmd, char *err, size_t errlen);
/* Any command but run: 0, -1 with err naming the script, line and thread,
 * or -2 when the script has no such command. */
int lscript_command(const struct lapi_script *s, char *err, size_t errlen);

/* init(), then one level of s->threads connections, each running
 * thread_init, thread_run and thread_done, on the connection machine
 * (pool_run), then done(). cfg: the level's settings, as a built-in
 * level's (--time, --events, --rate, --warmup-time, --ramp-timeout,
 * --forced-shutdown, the loops and client CPUs, the reports and
 * on_window); its engine, seed and targets are the script's own, and
 * before_window and the transaction log are not used.
 * 0 with out filled; -1 with err (out still holds what ran). */
int lscript_run(const struct lapi_script *s, const struct worker_cfg *cfg, struct level_result *out,
                char *err, size_t errlen);
/* Ask a running lscript_run to stop; safe from a signal handler. */
void lscript_stop(void);

#endif
