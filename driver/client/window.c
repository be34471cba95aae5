/*
 * window.c - fairness, the --report-checkpoints baseline and a
 * --report-interval period's figures, for the built-in loops and the Lua
 * loops alike (window.h).
 *
 * The one idea: nothing a loop counts is ever reset. A checkpoint keeps a
 * snapshot of every counter, the latency histogram, the CPU and each
 * connection's events and busy time; what the next checkpoint and the
 * level's result report is the difference. The snapshot of the connections
 * is taken once per checkpoint and serves both its fairness and the next
 * baseline, so no event falls between two checkpoints. Never prints: the
 * figures go back to the caller, which hands them to its callbacks.
 */
#include "client/window.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

struct window_ckpt *window_ckpt_new(int n, uint64_t t0, const struct rusage *ru0)
{
    struct window_ckpt *ck = xcalloc(1, sizeof *ck);
    ck->n = n;
    ck->events = xcalloc((size_t)n, sizeof *ck->events);
    ck->busy = xcalloc((size_t)n, sizeof *ck->busy);
    ck->h = xmalloc(sizeof *ck->h);
    hist_init(ck->h);
    ck->at = t0;
    ck->ru = *ru0;
    return ck;
}

void window_ckpt_free(struct window_ckpt *ck)
{
    if (!ck)
        return;
    free(ck->events);
    free(ck->busy);
    free(ck->h);
    free(ck);
}

void window_set_counts(struct level_result *out, const struct window_counts *c,
                       const struct window_counts *base)
{
    static const struct window_counts none;
    if (!base)
        base = &none;
    out->txns = c->txns - base->txns;
    out->reads = c->reads - base->reads;
    out->writes = c->writes - base->writes;
    out->others = c->others - base->others;
    out->errors = c->errors - base->errors;
    out->reconnects = c->reconnects - base->reconnects;
}

/* Mean of v[0..n) into *avg; its population standard deviation returned. */
static double sd(const double *v, int n, double *avg)
{
    double s = 0, q = 0;
    for (int i = 0; i < n; i++)
        s += v[i];
    *avg = n ? s / n : 0;
    for (int i = 0; i < n; i++)
        q += (v[i] - *avg) * (v[i] - *avg);
    return n ? sqrt(q / n) : 0;
}

/* Fairness from each connection's events and busy ns (ev, busy) less ck's. */
static void fairness_of(int n, const uint64_t *ev, const uint64_t *busy,
                        const struct window_ckpt *ck, struct level_result *out)
{
    double *e = xcalloc((size_t)n + 1, sizeof *e), *t = xcalloc((size_t)n + 1, sizeof *t);
    int base = ck && ck->taken;
    for (int i = 0; i < n; i++) {
        e[i] = (double)(ev[i] - (base ? ck->events[i] : 0));
        t[i] = (double)(busy[i] - (base ? ck->busy[i] : 0)) / 1e9;
    }
    out->fair_events_sd = sd(e, n, &out->fair_events_avg);
    out->fair_time_sd = sd(t, n, &out->fair_time_avg);
    free(e);
    free(t);
}

/* Every connection's events and busy ns as they are now. */
static void snapshot(int n, window_conn_fn *read, void *arg, uint64_t *ev, uint64_t *busy)
{
    for (int i = 0; i < n; i++)
        read(arg, i, &ev[i], &busy[i]);
}

void window_fairness(int n, window_conn_fn *read, void *arg, const struct window_ckpt *ck,
                     struct level_result *out)
{
    uint64_t *ev = xcalloc((size_t)n + 1, sizeof *ev), *busy = xcalloc((size_t)n + 1, sizeof *busy);
    snapshot(n, read, arg, ev, busy);
    fairness_of(n, ev, busy, ck, out);
    free(ev);
    free(busy);
}

void window_checkpoint(struct window_ckpt *ck, uint64_t now, uint64_t t0,
                       const struct window_counts *tot, const struct hist *cur,
                       const struct rusage *ru, window_conn_fn *read, void *arg,
                       struct level_result *r)
{
    window_set_counts(r, tot, ck->taken ? &ck->tot : NULL);
    r->time_s = (double)(now - ck->at) / 1e9;
    r->total_time_s = (double)(now - t0) / 1e9;
    r->lat = xmalloc(sizeof *r->lat);
    if (ck->taken)
        hist_diff(r->lat, cur, ck->h);
    else /* since the window's start: the exact min and max */
        hist_copy(r->lat, cur);
    level_result_cpu(r, &ck->ru, ru);
    uint64_t *ev = xcalloc((size_t)ck->n + 1, sizeof *ev);
    uint64_t *busy = xcalloc((size_t)ck->n + 1, sizeof *busy);
    snapshot(ck->n, read, arg, ev, busy);
    fairness_of(ck->n, ev, busy, ck, r);
    /* the baseline: the figures just reported */
    memcpy(ck->events, ev, (size_t)ck->n * sizeof *ev);
    memcpy(ck->busy, busy, (size_t)ck->n * sizeof *busy);
    free(ev);
    free(busy);
    ck->tot = *tot;
    hist_copy(ck->h, cur);
    ck->at = now;
    ck->ru = *ru;
    ck->taken = 1;
}

void window_since_ckpt_time(const struct window_ckpt *ck, uint64_t t1, const struct rusage *ru1,
                            struct level_result *out)
{
    if (!ck || !ck->taken)
        return;
    out->total_time_s = out->time_s;
    out->time_s = t1 > ck->at ? (double)(t1 - ck->at) / 1e9 : 1e-9;
    /* a checkpoint as the events ended: no CPU after it */
    level_result_cpu(out, t1 > ck->at ? &ck->ru : ru1, ru1);
}

void window_since_ckpt_counts(const struct window_ckpt *ck, struct level_result *out)
{
    if (!ck || !ck->taken)
        return;
    out->txns -= ck->tot.txns;
    out->reads -= ck->tot.reads;
    out->writes -= ck->tot.writes;
    out->others -= ck->tot.others;
    out->errors -= ck->tot.errors;
    out->reconnects -= ck->tot.reconnects;
    hist_diff(out->lat, out->lat, ck->h);
}

void window_interval(struct interval_stats *st, double t, double dt, int threads, double pct,
                     const struct window_counts *now, const struct window_counts *prev,
                     const struct hist *diff)
{
    *st = (struct interval_stats){
        .t = t,
        .dt = dt,
        .threads = threads,
        .tps = (double)(now->txns - prev->txns) / dt,
        .reads = (double)(now->reads - prev->reads) / dt,
        .writes = (double)(now->writes - prev->writes) / dt,
        .others = (double)(now->others - prev->others) / dt,
        .pct = pct,
        .lat_ms = (double)hist_percentile(diff, pct) / 1e6,
        .errors = (double)(now->errors - prev->errors) / dt,
        .reconnects = (double)(now->reconnects - prev->reconnects) / dt,
    };
}

void window_interval_queue(struct interval_stats *st, struct arrivals *a, int64_t concurrency)
{
    st->queue_known = 1;
    /* capped: under a stalled server the queue can grow without bound, and
     * counting it holds the arrival lock */
    st->queue_length = arrivals_queued(a, now_ns(), 10000000);
    st->concurrency = concurrency > 0 ? (uint64_t)concurrency : 0;
}
