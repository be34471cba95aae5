/*
 * ticker.c - a measured window's periods and checkpoints (ticker.h).
 *
 * The one idea: a report is a difference of two snapshots of counters the
 * loops never reset. A period reports the counts since the last period's
 * end over the time since then, as sysbench's reporter does (its seconds
 * are the ones that passed, not the nominal interval); a checkpoint hands
 * window.c the counts since the last checkpoint and becomes the baseline.
 */
#include "client/ticker.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"

void ticker_open(struct ticker *k, const struct ticker_cfg *cfg, uint64_t t0,
                 const struct rusage *ru0, int base)
{
    memset(k, 0, sizeof *k);
    k->cfg = *cfg;
    k->open = 1;
    k->t0 = k->last = t0;
    for (int i = 0; i < 3; i++) {
        k->h[i] = xmalloc(sizeof *k->h[i]);
        hist_init(k->h[i]);
    }
    if (base)
        cfg->sum(cfg->sum_arg, &k->prev, k->h[0]);
    /* under a nanosecond a step would never move the next period's end
     * (the options refuse below 0.01 s; this is the ticker's own guard) */
    int periods = cfg->rep.interval_s >= 1e-9 && cfg->rep.on_interval;
    k->next = periods ? t0 + (uint64_t)(cfg->rep.interval_s * 1e9) : UINT64_MAX;
    if (cfg->rep.ncheckpoints > 0 && cfg->rep.on_checkpoint)
        k->ck = window_ckpt_new(cfg->threads, t0, ru0);
}

/* The period that ends at at (its scheduled end), counted up to until. */
static void period(struct ticker *k, uint64_t at, uint64_t until)
{
    const struct ticker_cfg *cfg = &k->cfg;
    struct window_counts now;
    cfg->sum(cfg->sum_arg, &now, k->h[1]);
    hist_diff(k->h[2], k->h[1], k->h[0]);
    double dt = until > k->last ? (double)(until - k->last) / 1e9 : 1e-9;
    struct interval_stats st;
    window_interval(&st, (double)(at - k->t0) / 1e9, dt, cfg->threads,
                    cfg->rep.pct > 0 ? cfg->rep.pct : 95, &now, &k->prev, k->h[2]);
    if (cfg->win && cfg->win->paced)
        window_interval_queue(&st, &cfg->win->arrivals,
                              atomic_load_explicit(&cfg->win->concurrency, memory_order_relaxed));
    cfg->rep.on_interval(&st, cfg->rep.on_interval_arg);
    k->prev = now;
    hist_copy(k->h[0], k->h[1]);
    k->last = until;
}

/* The checkpoint at t s: the figures since the last one to the callback,
 * and the counters as they are now become the baseline (window.c). */
static void checkpoint(struct ticker *k, double t)
{
    const struct ticker_cfg *cfg = &k->cfg;
    struct window_counts tot;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    cfg->sum(cfg->sum_arg, &tot, k->h[1]);
    struct level_result r = {.threads = cfg->threads, .loops = cfg->loops};
    window_checkpoint(k->ck, now_ns(), k->t0, &tot, k->h[1], &ru, cfg->conn, cfg->conn_arg, &r);
    cfg->rep.on_checkpoint(t, &r, cfg->rep.on_checkpoint_arg);
    free(r.lat);
}

uint64_t ticker_tick(struct ticker *k, uint64_t now, uint64_t end, uint64_t cut)
{
    if (!k->open)
        return UINT64_MAX;
    uint64_t wake = UINT64_MAX;
    while (k->ck && k->ck->next < k->cfg.rep.ncheckpoints) {
        double t = k->cfg.rep.checkpoints[k->ck->next];
        uint64_t at = k->t0 + (uint64_t)(t * 1e9);
        if (now < at) {
            wake = at;
            break;
        }
        k->ck->next++;
        if (!cut || at < cut)
            checkpoint(k, t);
    }
    uint64_t step = (uint64_t)(k->cfg.rep.interval_s * 1e9);
    /* before the window closes: the period that ends with it is reported
     * too (--time=3 --report-interval=1 gives three lines) */
    while (now >= k->next && (!end || k->next <= end)) {
        period(k, k->next, end && end < now ? end : now);
        k->next += step;
    }
    if (!end || k->next <= end)
        wake = k->next < wake ? k->next : wake;
    return wake;
}

void ticker_close(struct ticker *k, uint64_t end)
{
    if (k->open && k->next != UINT64_MAX && end >= k->next && end > k->last)
        period(k, k->next, end);
    k->open = 0;
}

void ticker_free(struct ticker *k)
{
    for (int i = 0; i < 3; i++) {
        free(k->h[i]);
        k->h[i] = NULL;
    }
    window_ckpt_free(k->ck);
    k->ck = NULL;
    k->open = 0;
}
