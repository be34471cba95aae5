/*
 * level.c - one level's clock and its figures: the timing thread's work
 * while the loops run, and the collection of their counters afterwards.
 *
 * The one idea: the window is defined once. A transaction counts iff it
 * completes inside [start, end]; TPS = count / (end - start). The end is
 * --time's deadline, the moment the --events-th transaction completed, or a
 * stop, whichever came first. The timing thread sits exactly on the edges:
 * client rusage and the caller's on_window callback are taken there. What
 * was still in flight at the end is finished off uncounted; what has no
 * reply a grace period later is given up and counted as unfinished (the
 * grace is --forced-shutdown's). A script's level (a statement source,
 * pool_internal.h) keeps sysbench's end rule instead: an event running at
 * the end still counts, and the window closes where the last connection's
 * run ends, so that edge is taken on its loop (level_conn_over), the one
 * edge not taken here. A --report-checkpoints point is an interval of its
 * own: the figures since the previous one go to a callback and become the
 * baseline the next figures (and the level's result) are taken from. When
 * periods and checkpoints fall due is the ticker's (ticker.h). Nothing
 * here prints: figures go to callbacks.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "client/level.h"
#include "client/ticker.h"
#include "client/window.h"
#include "core/util.h"

/* The window's phases (pool.phase). */
enum { WIN_SHUT, WIN_OPEN, WIN_CLOSING, WIN_CLOSED };

/* The loops' counters, and a source's statements (its counts hook). */
static void sum_loops(struct pool *p, struct loop *loops, int nl, struct window_counts *t,
                      struct hist *h)
{
    memset(t, 0, sizeof *t);
    hist_init(h);
    for (int i = 0; i < nl; i++) {
        t->txns += pool_get(&loops[i].txns);
        t->reads += pool_get(&loops[i].reads);
        t->writes += pool_get(&loops[i].writes);
        t->others += pool_get(&loops[i].others);
        t->errors += pool_get(&loops[i].errors);
        t->reconnects += pool_get(&loops[i].reconnects);
        hist_merge(h, &loops[i].lat);
    }
    if (p->src && p->src->counts)
        p->src->counts(p, t);
}

/* Close the open window at `at`, once (whoever moves the phase first):
 * client CPU and on_window taken here, for the timing thread to read. */
static void shut(struct pool *p, uint64_t at)
{
    int open = WIN_OPEN;
    if (!atomic_compare_exchange_strong(&p->phase, &open, WIN_CLOSING))
        return;
    getrusage(RUSAGE_SELF, &p->closed_ru);
    p->closed_ns = at;
    if (p->cfg.on_window)
        p->cfg.on_window(0, p->cfg.on_window_arg);
    atomic_store(&p->phase, WIN_CLOSED);
}

void level_conn_over(struct pool *p)
{
    if (atomic_fetch_sub(&p->running, 1) == 1 && p->win.tail)
        shut(p, now_ns());
}

void level_conn_figures(void *arg, int i, uint64_t *events, uint64_t *busy_ns)
{
    struct pool *p = arg;
    *events = atomic_load_explicit(&p->conns[i]->events, RLX);
    *busy_ns = atomic_load_explicit(&p->conns[i]->busy_ns, RLX);
}

/* The ticker's view of the level: its loops' counters, summed. */
struct level_view {
    struct loop *loops;
    int nl;
};

static void sum_view(void *arg, struct window_counts *t, struct hist *h)
{
    struct level_view *v = arg;
    sum_loops(v->loops[0].pool, v->loops, v->nl, t, h);
}

static int all_joined(struct loop *loops, int nl)
{
    int done = 1;
    for (int i = 0; i < nl; i++) {
        if (!loops[i].joined && pthread_tryjoin_np(loops[i].th, NULL) == 0)
            loops[i].joined = 1;
        done &= loops[i].joined;
    }
    return done;
}

static uint64_t last_done(struct loop *loops, int nl)
{
    uint64_t last = 0;
    for (int i = 0; i < nl; i++)
        if (pool_get(&loops[i].last_done) > last)
            last = pool_get(&loops[i].last_done);
    return last;
}

/* The ramp (worker.h): 1 once every connection has finished a transaction
 * this level, or the timeout has passed (out says how many had not), or
 * there is none. */
static int ramp_over(struct pool *p, uint64_t now, uint64_t ramp_end, struct level_result *out)
{
    if (!p->ramp)
        return 1;
    int warm = atomic_load_explicit(&p->win.warm, RLX);
    if (warm < p->threads && now < ramp_end)
        return 0;
    out->ramp_missing = p->threads - warm;
    out->ramp_s = (double)(now - p->t0) / 1e9;
    return 1;
}

/* The window closed (its phase moved to closed, here or from a loop):
 * its end and client CPU as the closer took them. */
static void closed(struct pool *p, int *win, uint64_t *wend, struct rusage *ru1)
{
    *win = 2;
    *wend = p->closed_ns;
    *ru1 = p->closed_ru;
}

/* The timing loop is over (every loop joined): the window closed if it
 * had not (--events reached, nothing could run, a stop in the warmup) and
 * the level's time and CPU taken from its edges. gated: the window's start
 * was fixed; win: 0 never opened, 1 open, 2 closed at wend. */
static void window_close(struct pool *p, struct loop *loops, int nl, int gated, int win,
                         struct rusage *ru0, struct rusage *ru1, uint64_t wend,
                         struct level_result *out)
{
    if (!gated && p->cfg.before_window && !p->window_gated)
        p->cfg.before_window(p->cfg.before_window_arg); /* stopped in the warmup: the other
                                                           ranks still wait for us */
    if (win == 1 && atomic_load(&p->phase) != WIN_CLOSED) {
        /* the loops ended on their own (--events, or nothing could run; a
         * tail window whose runs never began): before --time's deadline
         * the window ends now, or at the last counted completion, never
         * at a deadline that did not come */
        uint64_t now = now_ns(), last = last_done(loops, nl);
        uint64_t e = window_end_now(&p->win);
        if (p->win.tail) /* where the last run ended: about now */
            e = now;
        else if (!e || e > now)
            e = p->cfg.events > 0 && last > p->win.start ? last : now;
        shut(p, e);
    }
    if (win == 1)
        closed(p, &win, &wend, ru1);
    if (win == 0) {
        getrusage(RUSAGE_SELF, ru0);
        *ru1 = *ru0;
        wend = p->win.start;
    }
    /* --events: completions of other loops may land just after the one
     * that reached the count; they are inside the window */
    uint64_t last = last_done(loops, nl);
    if (p->cfg.events > 0 && last > wend)
        wend = last;
    out->time_s = wend > p->win.start ? (double)(wend - p->win.start) / 1e9 : 1e-9;
    level_result_cpu(out, ru0, ru1);
    ticker_close(&p->tick, wend);
    window_since_ckpt_time(p->tick.ck, wend, ru1, out); /* counters restart at a checkpoint */
}

/* The ticker of the level's window (ticker.h), over its loops' counters. */
static void open_ticker(struct pool *p, struct level_view *v, const struct rusage *ru0)
{
    struct ticker_cfg tc = {
        .threads = p->threads,
        .loops = v->nl,
        .rep = p->cfg.rep,
        .win = &p->win,
        .sum = sum_view,
        .sum_arg = v,
        .conn = level_conn_figures,
        .conn_arg = p,
    };
    /* a source's counters ran before the window: its first period starts
     * from what they held at the start */
    ticker_open(&p->tick, &tc, p->win.start, ru0, p->src != NULL);
}

/* A source's loop will not come back (conn_source.abandoned). */
static int abandoned(struct pool *p)
{
    return p->src && p->src->abandoned && p->src->abandoned(p);
}

int level_keep_time(struct pool *p, struct loop *loops, int nl, struct level_result *out)
{
    struct rusage ru0, ru1;
    int win = 0; /* 0 not begun, 1 open, 2 closed */
    uint64_t wend = 0;
    struct level_view view = {loops, nl};
    /* gated: the window's start is fixed; else (start_loops) it waits for
     * the warmup's end, the ramp and before_window */
    int gated = (!p->cfg.before_window || p->window_gated) && !p->ramp;
    uint64_t warm_end = p->t0 + (uint64_t)(p->cfg.warmup_s * 1e9);
    uint64_t ramp_end = p->t0 + (uint64_t)(p->cfg.ramp_timeout_s * 1e9);
    for (;;) {
        uint64_t now = now_ns();
        if (abandoned(p))
            return -1;
        if (!gated && now >= warm_end && ramp_over(p, now, ramp_end, out)) {
            /* till now the start was WINDOW_SHUT and the end 0 (start_loops):
             * nothing counted and no --time ran out; the window starts
             * from before_window's return */
            gated = 1;
            if (p->cfg.before_window && !p->window_gated)
                p->cfg.before_window(p->cfg.before_window_arg);
            now = now_ns();
            if (p->cfg.time_s > 0)
                atomic_store(&p->win.end, now + (uint64_t)(p->cfg.time_s * 1e9));
            atomic_store(&p->win.start, now);
            for (int i = 0; i < nl; i++) /* what the ramp held begins now */
                loop_kick(&loops[i]);
        }
        uint64_t e = window_end_now(&p->win), due = UINT64_MAX;
        if (win == 0 && now >= p->win.start && !(e && e <= p->win.start)) {
            if (p->src && p->src->window_open)
                p->src->window_open(p);
            getrusage(RUSAGE_SELF, &ru0);
            if (p->cfg.on_window)
                p->cfg.on_window(1, p->cfg.on_window_arg);
            win = 1;
            atomic_store(&p->phase, WIN_OPEN);
            open_ticker(p, &view, &ru0);
        }
        /* a checkpoint at or after the end is the result's; with the tail
         * rule the periods go on until the last run ends */
        if (win == 1)
            due = ticker_tick(&p->tick, now, p->win.tail ? 0 : e, e);
        if (win == 1 && e && now >= e && !p->win.tail)
            shut(p, e);
        if (win == 1 && atomic_load(&p->phase) == WIN_CLOSED) {
            closed(p, &win, &wend, &ru1);
            ticker_close(&p->tick, wend);
        }
        if (all_joined(loops, nl))
            break;
        uint64_t wake = now + 20000000ull;
        if (!gated && warm_end < wake)
            wake = warm_end;
        if (win == 0 && p->win.start < wake)
            wake = p->win.start;
        if (win == 1 && due < wake)
            wake = due;
        if (win == 1 && e && e < wake && !p->win.tail)
            wake = e;
        struct timespec ts = {(time_t)(wake / 1000000000ull), (long)(wake % 1000000000ull)};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    }
    window_close(p, loops, nl, gated, win, &ru0, &ru1, wend, out);
    return 0;
}

/* The debug transaction log: "connection latency_ns end_ns" (the end since
 * the window's start) per counted one,
 * appended level after level. */
static void write_log(struct pool *p, struct loop *loops, int nl)
{
    FILE *f = fopen(p->txn_log, "a");
    if (!f)
        return;
    fprintf(f, "# level threads=%d\n", p->threads);
    for (int i = 0; i < nl; i++)
        for (size_t k = 0; k < loops[i].nlog; k++)
            fprintf(f, "%u %llu %llu\n", loops[i].log[k].conn + 1,
                    (unsigned long long)loops[i].log[k].lat_ns,
                    (unsigned long long)loops[i].log[k].end_ns);
    fclose(f);
}

void level_collect(struct pool *p, struct loop *loops, int nl, struct level_result *out)
{
    out->lat = xmalloc(sizeof(struct hist));
    struct window_counts tot;
    sum_loops(p, loops, nl, &tot, out->lat);
    window_set_counts(out, &tot, NULL);
    uint64_t max_gap = 0;
    for (int i = 0; i < nl; i++) {
        struct loop *l = &loops[i];
        out->lost += pool_get(&l->lost);
        out->unfinished += l->unfinished;
        if (l->stall.max_gap > max_gap)
            max_gap = l->stall.max_gap;
        for (int k = 0; k < l->ncodes; k++)
            err_count_add(out->codes, &out->ncodes, l->codes[k].code, l->codes[k].n);
        if (l->fatal[0] && !out->fatal_msg[0])
            snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", l->fatal);
    }
    if (p->txn_log)
        write_log(p, loops, nl);
    level_result_disturbance(out, window_stall_s(max_gap));
    window_since_ckpt_counts(p->tick.ck, out); /* only what came after the last checkpoint */
    window_fairness(p->threads, level_conn_figures, p, p->tick.ck, out);
    ticker_free(&p->tick);
}
