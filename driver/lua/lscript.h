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

struct lscript_limits {
    double time_s;    /* 0 = no limit */
    long long events; /* 0 = no limit */
    /* --report-interval and --report-checkpoints, from a timing thread of
     * the run's own, as a built-in level's (the result is then the time
     * after the last checkpoint) */
    struct window_reports rep;
    double rate;           /* --rate: events/s, Poisson arrivals, one queue; 0 = off */
    double warmup_s;       /* --warmup-time: run uncounted first */
    double ramp_timeout_s; /* --ramp-timeout: the window waits for every connection's
                              first event, as worker_cfg's (not with events or rate) */
    /* --forced-shutdown: after the run's end, how long events waiting for
     * a reply may take before they are given up (no thread_done for them),
     * as worker_cfg.grace_s: 0 = 1 s (LLOOP_GRACE_NS), < 0 = as long as
     * they take (sysbench's default) */
    double grace_s;
    int loops;               /* event-loop threads; 0 = one per client CPU */
    int batch_from;          /* the loops' policy (worker_cfg.batch_from) */
    const char *client_cpus; /* CPU list the loops run on; NULL = anywhere */
    /* NULL, or told the measured window's edges: 1 as it opens (after the
     * warmup, from the calling thread), 0 as the last connection's events
     * end (from its loop), before thread_done and the teardown */
    void (*on_window)(int begin, void *arg);
    void *on_window_arg;
};
/* init(), then threads x (thread_init, thread_run, thread_done) on the
 * loops, done().
 * 0 with out filled; -1 with err (out still holds what ran). */
int lscript_run(const struct lapi_script *s, const struct lscript_limits *lim,
                struct level_result *out, char *err, size_t errlen);
/* Ask a running lscript_run to stop; safe from a signal handler. */
void lscript_stop(void);

#endif
