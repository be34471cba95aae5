/*
 * ranks.h - one run shared by many client processes (dbscale-mpi's ranks):
 * the pure half, without MPI.
 *
 * A rank's share of --threads and --rate, its seed, and the reduction of the
 * ranks' level results into one. A rank packs its result into a flat
 * rank_part (plain integers and doubles, no pointers, so MPI moves it as
 * bytes); rank 0 merges the parts exactly: counters and histogram buckets
 * are summed, so the merged percentiles are those of all transactions.
 */
#ifndef DBSCALE_RANKS_H
#define DBSCALE_RANKS_H

#include <stddef.h>
#include <stdint.h>

#include "stats/hist.h"
#include "client/worker.h"

/* total split over nranks, the remainder to the lowest ranks: 7 over 3 =
 * 3/2/2. */
long long ranks_share(long long total, int nranks, int rank);
/* --rate split the same way over its whole transactions/s, the fraction
 * spread evenly; the shares add up to rate. */
double ranks_rate_share(double rate, int nranks, int rank);
/* A seed stream of its own for every rank; rank 0 keeps the seed given, so
 * one rank repeats a single-process run. */
uint64_t ranks_seed(uint64_t seed, int rank);
/* Whether every rank gets work: -1 with a message when --threads (or a
 * --rate > 0) is smaller than the number of ranks (a rank with no connection
 * would measure nothing; one with rate 0 would run unlimited). */
int ranks_check_split(long long threads, double rate, int nranks, char *err, size_t errlen);

/* One rank's level result, flat. */
struct rank_part {
    int rank, threads, loops, interrupted, disturbed, ncodes, status;
    double time_s, setup_s, client_user_s, client_sys_s, client_csw;
    double fair_events_avg, fair_events_sd, fair_time_avg, fair_time_sd;
    uint64_t txns, reads, writes, others, errors, reconnects, lost, unfinished;
    struct err_count codes[WORKER_MAX_CODES];
    char disturbed_why[96];
    char fatal_msg[640];
    char host[64];
    uint64_t hcount, hsum, hmin, hmax;
    uint64_t hb[HIST_BUCKETS];
};

/* r into part (r->lat may be NULL: an empty histogram). status is the
 * rank's pool_run return (0 done, 1 interrupted, -1 failed). */
void ranks_pack(struct rank_part *part, const struct level_result *r, int rank, const char *host,
                int status);
/* The n parts into out (out->lat is allocated; level_result_free frees
 * it): sums of counters, CPU and threads; the longest window and setup;
 * codes merged by name; fairness pooled over all connections; the first
 * failure's message, prefixed with its rank and host. Returns the merged
 * status: -1 if any rank failed, else 1 if any was interrupted, else 0. */
int ranks_merge(struct level_result *out, const struct rank_part *parts, int n);
/* One part back into a level result of its own (out->lat allocated), for
 * that rank's row. */
void ranks_unpack(struct level_result *out, const struct rank_part *p);

/* The ranks' --report-interval periods of one level into one series: the
 * k-th period of every rank adds up (tps, qps, errors are sums over the
 * ranks, which report on the same period length); p95 is the highest
 * rank's (a per-period percentile of the union cannot be rebuilt from
 * per-rank figures: an upper bound, not the exact value). per[r][0..n[r]);
 * out gets max(n) periods, t from the first rank that has each. */
struct interval_row;
struct intervals;
void ranks_merge_intervals(struct intervals *out, const struct interval_row *const *per,
                           const size_t *n, int nranks);

#endif
