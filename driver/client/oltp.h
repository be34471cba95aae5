/*
 * oltp.h - the sysbench-compatible OLTP verbs (prepare, run, cleanup) and the
 * option vocabulary they share with the sweep.
 */
#ifndef DBSCALE_OLTP_H
#define DBSCALE_OLTP_H

#include <stdio.h>

#include "engines/db.h"
#include "core/options.h"
#include "client/worker.h"
#include "client/workload.h"

/* Workload, connection, timing and output options, in sysbench's names:
 * the general ones and every engine's own (db_ops.options), one table. */
const struct optdef *oltp_optdefs(void);
size_t oltp_noptdefs(void);
/* A new table (the caller frees it): oltp_optdefs with --threads taking a
 * list of counts, as a sweep does, followed by the n entries of extra. */
struct optdef *oltp_optdefs_with(const struct optdef *extra, size_t n, size_t *total);

#define OLTP_MAX_CHECKPOINTS 64

/* Everything a run needs, built from parsed options. */
struct oltp_setup {
    struct workload wl;
    const struct db_ops *ops;
    struct db_target *targets;
    int ntargets;
    char *hosts; /* storage behind targets[].host (or .socket: a socket list) */
    struct worker_cfg wcfg;
    double pcts[8];
    int npcts;
    int verbosity; /* --verbosity, sysbench's 0..5 */
    int forced;    /* --forced-shutdown=N|N%: what is given up ends the run with exit 2 */
    double ckpts[OLTP_MAX_CHECKPOINTS]; /* --report-checkpoints, s, ascending */
    int nckpts;
};

/* The engine whose own option name is (db_ops.options); NULL for a
 * general one. */
const struct db_ops *oltp_option_engine(const char *name);

/* The engine the options name: --db-driver; unset, a --pgsql-* connection
 * option means pgsql, else sysbench's mysql. NULL with err when options of
 * both engines are given without --db-driver, or another engine's with it. */
const struct db_ops *oltp_engine(const struct opts *o, char *err, size_t errlen);

/* --client-sched as the loops take it (sched_policy.h): the fewest
 * connections a loop serves to run as SCHED_BATCH. auto is the engine's
 * batch_min_conns, or never when --rate paces the run (its arrivals are
 * sent on time). */
int oltp_client_sched(const struct opts *o, const struct db_ops *ops);

/* --forced-shutdown=N|N%|off into a grace in seconds (0 = the loops'
 * default of 1 s, < 0 = no limit); 0 with err when malformed. */
int oltp_forced_shutdown(const char *v, double time_s, double *grace, char *err, size_t errlen);

/* Build from options (the workload name is given separately). 0, or -1 with
 * a message naming the option at fault. */
int oltp_setup(struct oltp_setup *s, const struct opts *o, const char *workload, char *err,
               size_t errlen);
void oltp_setup_free(struct oltp_setup *s);

/* Create and load the sbtest tables (oltp_load.c), one connection per table in parallel.
 * Progress lines go to log. 0 or -1 with err. */
int oltp_prepare(const struct oltp_setup *s, FILE *log, char *err, size_t errlen);
/* Read every table and its indexes into the server's buffer pool, as
 * sysbench's prewarm (oltp_prewarm.c): threads connections, thread t taking
 * tables t+1, t+1+threads, ... "Prewarming table" lines go to log. */
int oltp_prewarm(const struct oltp_setup *s, int threads, FILE *log, char *err, size_t errlen);
/* Drop the tables prepare created. */
int oltp_cleanup(const struct oltp_setup *s, FILE *log, char *err, size_t errlen);

/* Refuse, before any level runs, more connections than the server accepts:
 * -1 with a message naming max_connections. 0 when they fit or the limit
 * cannot be read (the connections will then say why). */
int oltp_check_connections(const struct oltp_setup *s, long long threads, char *err, size_t errlen);

/* "oltp_read_only", "/usr/share/sysbench/oltp_read_only.lua" -> "oltp_read_only" */
const char *oltp_workload_name(const char *arg, char *buf, size_t len);

/* How one `run` (verbs.h's oltp_run_shared) shares its work with other
 * processes: dbscale-mpi's ranks fill it (ranks/mpi_run.c); a single
 * process passes NULL. Every callback is collective: all ranks call it.
 * Only rank 0 prints the header and the report. */
struct run_share {
    int rank, nranks;
    void *arg;
    /* this rank's slice: threads becomes its connections; rate, seed and
     * application name set in s. -1 with err when the run cannot be split. */
    int (*slice)(struct oltp_setup *s, int *threads, char *err, size_t errlen, void *arg);
    /* ok = this rank's pool opened (else err says why): 0 when every rank's
     * did, else -1 with (on rank 0) the failing rank and host in err */
    int (*all_open)(int ok, char *err, size_t errlen, void *arg);
    void (*start)(void *arg); /* before the level: a barrier */
    /* this rank's result and pool_run status in; on rank 0 r becomes the
     * reduction of all ranks; returns the merged status on every rank */
    int (*reduce)(struct level_result *r, int status, void *arg);
};

#endif
