/*
 * level_result.h - what one level (a built-in mix's or a script's) hands
 * back: its counts, latency histogram, error codes, client CPU, fairness
 * and how it was disturbed. A level's run (level.c) and dbscale-mpi's
 * reduction (ranks/) fill this one struct, and the
 * reports read it; its three helpers live beside it, so the loops' files
 * call into it and never into each other.
 */
#ifndef DBSCALE_LEVEL_RESULT_H
#define DBSCALE_LEVEL_RESULT_H

#include <stdint.h>

#include "stats/hist.h"

/* error codes a result keeps apart; later new ones are dropped */
#define WORKER_MAX_CODES 16

struct err_count {
    char code[16];
    uint64_t n;
};
/* n more of code in codes[0..*ncodes): the first WORKER_MAX_CODES codes
 * seen are kept, later new ones dropped (every counter and merge uses it). */
void err_count_add(struct err_count *codes, int *ncodes, const char *code, uint64_t n);

struct level_result {
    int threads, loops;
    double time_s; /* the measured window: a transaction counts iff it completes inside */
    /* with checkpoints, time_s is since the last one (the counters' time)
     * and this since the window's start (sysbench's "total time"); else 0 */
    double total_time_s;
    uint64_t txns, reads, writes, others, errors, reconnects;
    uint64_t lost; /* connections lost during the level (some may still be down) */
    struct err_count codes[WORKER_MAX_CODES];
    int ncodes;
    struct hist *lat;                       /* transaction latency, ns */
    double client_user_s, client_sys_s;     /* getrusage over the window */
    double client_csw;                      /* context switches (voluntary + not) */
    double fair_events_avg, fair_events_sd; /* per connection */
    double fair_time_avg, fair_time_sd;     /* seconds busy per connection */
    double setup_s;                         /* dead time before the level (connects) */
    int interrupted;                        /* stopped by pool_stop() */
    int abandoned;          /* a script's loop still runs (driver/lua/lwatch.h): end the process */
    char fatal_msg[640];    /* set when the run failed */
    uint64_t unfinished;    /* in flight at the window's end, given up, not counted */
    double ramp_s;          /* from the level's start (its warmup's end) to its window's */
    int ramp_missing;       /* connections without a first transaction when it opened */
    int disturbed;          /* stall, reconnects, lost connections or unfinished work */
    char disturbed_why[96]; /* short reason, e.g. "stall 20.1s; 3 reconnects" */
};

/* out->disturbed and its reason, from what out counts (reconnects, lost,
 * unfinished, connections the ramp missed) and a stall of stall_s
 * seconds (0 = none): one wording for the built-in and the scripted runs. */
void level_result_disturbance(struct level_result *out, double stall_s);
/* Frees r->lat (and leaves it NULL). */
void level_result_free(struct level_result *r);
struct rusage;
/* The client's CPU (user, system, context switches) from getrusage's a to
 * b into out: a level's, a checkpoint's, a script's window. */
void level_result_cpu(struct level_result *out, const struct rusage *a, const struct rusage *b);

#endif
