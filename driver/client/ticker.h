/*
 * ticker.h - the reports a measured window makes while it is open: a
 * --report-interval period every interval_s, and a --report-checkpoints
 * point at each listed second. A level's timing thread (client/level.c)
 * keeps one ticker, for a built-in mix and a script alike: when a
 * report falls due, what it covers, and the baseline it leaves are decided
 * here, once. The caller owns the window's edges and its clock; the ticker
 * is told the time and says when it next needs to be. Figures go to the
 * callbacks; nothing here prints.
 */
#ifndef DBSCALE_TICKER_H
#define DBSCALE_TICKER_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/resource.h>

#include "client/window.h"
#include "client/window_state.h"

struct ticker_cfg {
    int threads, loops;
    /* no interval_s or on_interval: no periods; no checkpoints or
     * on_checkpoint: no points */
    struct window_reports rep;
    /* the running window: with --rate (paced) a period's queue line reads
     * its arrivals and concurrency */
    struct window_state *win;
    /* what the run has counted so far, summed over its connections, with
     * their latencies (read while the loops write: relaxed, hist.h) */
    void (*sum)(void *arg, struct window_counts *c, struct hist *h);
    void *sum_arg;
    window_conn_fn *conn; /* each connection's events and busy time */
    void *conn_arg;
};

struct ticker {
    struct ticker_cfg cfg;
    int open;
    uint64_t t0;   /* the window's start, ns */
    uint64_t last; /* the last period's end (t0 at first), ns */
    uint64_t next; /* the next period's end, UINT64_MAX: no periods */
    struct window_counts prev;
    struct hist *h[3];      /* at the last period's end, now, the difference */
    struct window_ckpt *ck; /* the checkpoints' baseline; NULL: none */
};

/* The window opened at t0 with CPU ru0. base: the counts so far are the
 * first period's baseline (a script counts from before t0); 0: the first
 * period starts from nothing (a level counts nothing before t0). */
void ticker_open(struct ticker *k, const struct ticker_cfg *cfg, uint64_t t0,
                 const struct rusage *ru0, int base);
/* Make the reports due at now: checkpoints first, then periods. end: the
 * window's end as known now (0: open-ended): no period runs past it. cut:
 * a checkpoint at or after it is the final report's, not one of its own
 * (0: none). Returns when the next report falls due (UINT64_MAX: none). */
uint64_t ticker_tick(struct ticker *k, uint64_t now, uint64_t end, uint64_t cut);
/* The window closed at end: the period that end reached and that was not
 * reported yet is reported up to end, as sysbench's reporter does. */
void ticker_close(struct ticker *k, uint64_t end);
/* What it holds (k->ck too); a ticker never opened holds nothing. */
void ticker_free(struct ticker *k);

#endif
