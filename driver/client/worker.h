/*
 * worker.h - client connections and the loops that drive them.
 *
 * A pool holds N open, prepared connections. pool_run(threads) drives the
 * first `threads` of them for one level: every connection runs one
 * transaction at a time and waits for every reply (sysbench's semantics),
 * while a few event-loop threads (one per client CPU by default) multiplex
 * them. Connections stay open between levels, so a sweep pays the connect
 * cost once. Errors are acted on here: retry after ROLLBACK, reconnect with
 * backoff, or stop the run. A level ends on time: work still in flight at
 * the window's end is finished off uncounted, and a reply still missing a
 * second later is given up (its connection dropped) and counted unfinished.
 */
#ifndef DBSCALE_WORKER_H
#define DBSCALE_WORKER_H

#include <stdint.h>

#include "engines/db.h"
#include "stats/hist.h"
#include "client/level_result.h"
#include "client/workload.h"

/* Figures of one --report-interval period, handed to window_reports.on_interval. */
struct interval_stats {
    double t, dt; /* end of the period since measuring began, and its length, s */
    int threads;
    double tps, reads, writes, others; /* per second */
    double pct, lat_ms;                /* the percentile shown and its latency */
    double errors, reconnects;         /* per second */
    /* --rate: arrivals waiting for a free connection and connections busy
     * at the period's end (sysbench's queue-length line); queue_known = 1
     * with --rate (they are counted only then) */
    int queue_known;
    uint64_t queue_length, concurrency;
};

struct level_result;

/* What a measured window reports while it is open (client/ticker.h): the
 * --report-interval periods and the --report-checkpoints points, and where
 * each goes. A level's settings (worker_cfg) carry it whole, for a
 * built-in mix's level and a script's alike, and the ticker takes it as
 * it is. */
struct window_reports {
    double interval_s; /* --report-interval, s; 0 = off */
    double pct;        /* the percentile a period shows; 0 = 95 */
    /* called from the timing thread every interval_s, never from a loop */
    void (*on_interval)(const struct interval_stats *st, void *arg);
    void *on_interval_arg;
    /* --report-checkpoints: seconds since the window's start, ascending. At
     * each, on_checkpoint gets the figures since the previous one (or the
     * start) from the timing thread, and the counters start again: the
     * result then covers only the time after the last checkpoint. */
    const double *checkpoints;
    int ncheckpoints;
    void (*on_checkpoint)(double t, const struct level_result *r, void *arg);
    void *on_checkpoint_arg;
};

struct worker_cfg {
    const struct db_ops *ops;
    const struct db_target *targets; /* connections spread round-robin over these */
    int ntargets;
    const struct workload *wl;
    uint64_t seed;
    int loops;                 /* event-loop threads; 0 = one per client CPU */
    int batch_from;            /* loops of this many connections or more run as SCHED_BATCH
                                  (oltp_client_sched, sched_policy.h); 0 = all of them */
    double rate;               /* total transactions/s with Poisson arrivals; 0 = unlimited */
    long long events;          /* stop after this many transactions; 0 = no limit */
    double time_s;             /* measured time; 0 = no limit */
    double warmup_s;           /* run but do not count, before the measured time */
    const char *ignore_errors; /* NULL: the engine's own retry list; "all"; "1213,40P01" */
    double reconnect_timeout;  /* a connection down longer than this fails the run */
    const char *client_cpus;   /* CPU list for the loop threads, NULL = anywhere */
    /* sysbench's --thread-init-timeout: seconds a level's new connections
     * may take to open, all together; 0 = no limit beyond each connect's own */
    double init_timeout_s;
    /* --ramp-timeout: the window opens only once every connection of the
     * level has finished a transaction (uncounted: a cold backend's first
     * statements take seconds at 1000 connections), or this many seconds
     * after the level's start, when the level is marked disturbed with the
     * connections that had not. 0 = at once. Not with --events or --rate,
     * whose windows open at once (exactly N run; arrivals go to whichever
     * connection is free). */
    double ramp_timeout_s;
    /* after the window's end, how long transactions still running may take
     * before they are given up (--forced-shutdown): 0 = POOL's 1 s, < 0 = as
     * long as they take. A stop (a signal) gives up after 1 s regardless. */
    double grace_s;
    struct window_reports rep; /* --report-interval, --report-checkpoints */
    /* called from the timing thread exactly at the measured window's
     * edges: 1 at its start, 0 at its end. With --events or a stop the end
     * is seen within ~20 ms of the moment it happened. A script's level
     * ends where its last connection's run does (the tail rule): that 0
     * comes from the loop, before the connections' thread_done. */
    void (*on_window)(int begin, void *arg); /* 1 at the window's start, 0 at its end */
    void *on_window_arg;
    /* NULL, or called once per level from the timing thread (the thread
     * that called pool_run) when the warmup is over, before the window is
     * fixed; the window starts when it returns, so it may block: dbscale-mpi
     * waits there for every rank (a barrier) so all windows start together.
     * Nothing counts while it blocks; without a warmup nothing runs either
     * (it is called before the loops start). Called even when the level is
     * stopped during the warmup, so every rank calls it once a level. */
    void (*before_window)(void *arg);
    void *before_window_arg;
    /* debug: append "connection latency_ns end_ns" (end_ns since the
     * window's start) of every counted transaction
     * to this file after each level; NULL = the DBSCALE_TXN_LOG variable */
    const char *txn_log;
};

/* The connect timeout of a reconnect, s. A reconnect blocks its loop, so it
 * must give up soon (and try again after a back-off): a server that
 * accepts but never answers would otherwise hold the loop, and a stop, for
 * the engine's default 10 s. 2 is libpq's minimum. */
#define WORKER_RECONNECT_TIMEOUT_S 2

struct pool;

/* Open nconns connections and prepare the workload's statements on each. */
struct pool *pool_open(const struct worker_cfg *cfg, int nconns, char *err, size_t errlen);
/* One level with `threads` connections (the pool grows if needed).
 * 0 done, 1 interrupted (results so far are in out), -1 failed (fatal_msg).
 * Returns within about a second of the window's end or of pool_stop(), even
 * when the server never answers (except while a reconnect is connecting). */
int pool_run(struct pool *p, int threads, struct level_result *out);
/* Ask a running level to stop; safe from a signal handler. */
void pool_stop(struct pool *p);
void pool_close(struct pool *p);
/* Where the loop threads of the next levels run: a CPU list, NULL = anywhere. */
void pool_set_client_cpus(struct pool *p, const char *list);

#endif
