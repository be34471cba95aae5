/*
 * window.h - the figures of a measured window that a level reports,
 * a built-in mix's or a script's (client/level.c, ticker.c):
 * stalls, sysbench's thread fairness, the --report-checkpoints baseline
 * and the --report-interval periods with their --rate queue (what the
 * connections ask the window while it runs: window_state.h). Written
 * once, so a change to how a window is counted is made once.
 */
#ifndef DBSCALE_WINDOW_H
#define DBSCALE_WINDOW_H

#include <stdatomic.h>
#include <stdint.h>
#include <sys/resource.h>

#include "client/arrivals.h"
#include "client/window_state.h"
#include "client/worker.h"
#include "stats/hist.h"

/* A stall: a stretch of at least WINDOW_STALL_NS inside the window in
 * which statements were outstanding and no reply at all came back. OLTP
 * replies take milliseconds, so a normal run never comes near it, even
 * loaded; a server stopped for 20 s inside a 3 s level trips it at once.
 * Idle time (--rate with nothing outstanding) is no stall. A loop keeps one
 * window_stall (the built-in loops and the Lua loops alike): sent when a
 * statement goes out, replied when one comes back (done or failed, or
 * given up), ended once when the window is over with statements still
 * out, over the window's edges as the run's window_state has them now
 * (a stop ends it too). The level's stall is the longest max_gap of its
 * loops. */
#define WINDOW_STALL_NS 1000000000ull
struct window_stall {
    int waiting;          /* statements out */
    uint64_t progress_at; /* the last reply, or when waiting became non-zero */
    uint64_t max_gap;     /* the longest stretch without replies, in the window */
};
static inline void window_stall_gap(struct window_stall *s, uint64_t now, uint64_t start,
                                    uint64_t end)
{
    uint64_t lo = s->progress_at > start ? s->progress_at : start;
    uint64_t hi = end && end < now ? end : now;
    if (hi > lo && hi - lo > s->max_gap)
        s->max_gap = hi - lo;
}
static inline void window_stall_sent(struct window_stall *s, uint64_t now)
{
    if (s->waiting++ == 0)
        s->progress_at = now;
}
static inline void window_stall_replied(struct window_stall *s, uint64_t now,
                                        struct window_state *w)
{
    window_stall_gap(s, now, atomic_load_explicit(&w->start, WS_RLX), window_end_now(w));
    s->progress_at = now;
    s->waiting--;
}
static inline void window_stall_ended(struct window_stall *s, uint64_t now, struct window_state *w)
{
    if (s->waiting > 0)
        window_stall_gap(s, now, atomic_load_explicit(&w->start, WS_RLX), window_end_now(w));
}
/* The stall's seconds for level_result_disturbance: 0 below WINDOW_STALL_NS. */
static inline double window_stall_s(uint64_t max_gap)
{
    return max_gap >= WINDOW_STALL_NS ? (double)max_gap / 1e9 : 0;
}

/* The counts a level's result is made of, summed over the connections. */
struct window_counts {
    uint64_t txns, reads, writes, others, errors, reconnects;
};

/* Each connection's completed events and busy time (ns) so far, read by
 * the one who owns them (relaxed atomic loads: the loops write them). */
typedef void window_conn_fn(void *arg, int i, uint64_t *events, uint64_t *busy_ns);

/* --report-checkpoints: the figures at the last checkpoint (or the
 * window's start), which the next checkpoint and the level's result
 * subtract: differences, so the loops never reset anything. */
struct window_ckpt {
    int next, taken; /* the next checkpoint of the list; one was reported */
    int n;           /* connections */
    uint64_t at;     /* when the last was taken (or the window began), ns */
    struct window_counts tot;
    struct rusage ru;
    uint64_t *events, *busy; /* per connection */
    struct hist *h;
};

/* A baseline for n connections at the window's start t0 (CPU ru0). */
struct window_ckpt *window_ckpt_new(int n, uint64_t t0, const struct rusage *ru0);
void window_ckpt_free(struct window_ckpt *ck);

/* out's counts: c less base (NULL: none). */
void window_set_counts(struct level_result *out, const struct window_counts *c,
                       const struct window_counts *base);

/* sysbench's thread fairness over n connections: each one's events and busy
 * seconds since ck's baseline (ck NULL or none taken: since the start),
 * their mean and population standard deviation. */
void window_fairness(int n, window_conn_fn *read, void *arg, const struct window_ckpt *ck,
                     struct level_result *out);

/* A checkpoint at now: r gets the figures since the last one (or the
 * window's start t0): counts from tot, latency from cur (r->lat allocated,
 * the caller frees it), the time, the CPU to ru and the fairness. Then the
 * figures as they are become the baseline. */
void window_checkpoint(struct window_ckpt *ck, uint64_t now, uint64_t t0,
                       const struct window_counts *tot, const struct hist *cur,
                       const struct rusage *ru, window_conn_fn *read, void *arg,
                       struct level_result *r);

/* One --report-interval period's figures into st: the counts now less
 * those at the period's start (prev), per second over dt; the pct
 * percentile of diff, the period's latency histogram. t: the period's end
 * since the window's start, s. The --rate queue fields are left 0. */
void window_interval(struct interval_stats *st, double t, double dt, int threads, double pct,
                     const struct window_counts *now, const struct window_counts *prev,
                     const struct hist *diff);

/* --rate: the period's queue fields (sysbench's "queue length" and
 * "concurrency" line): the arrivals due that no connection has taken yet,
 * and the connections inside a transaction now. */
void window_interval_queue(struct interval_stats *st, struct arrivals *a, int64_t concurrency);

/* The level's result, taken over the whole window, made the figures since
 * the last checkpoint when one was taken (ck NULL or none: unchanged).
 * _time: the window ended at t1 with CPU ru1; total_time_s keeps the
 * whole window's time. _counts: the counts and the latency. */
void window_since_ckpt_time(const struct window_ckpt *ck, uint64_t t1, const struct rusage *ru1,
                            struct level_result *out);
void window_since_ckpt_counts(const struct window_ckpt *ck, struct level_result *out);

#endif
