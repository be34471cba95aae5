/*
 * sweep_knee.c - --profile=knee: after the plan, the levels around each
 * curve's knee and peak run once more, profiled (repeat 0: results.csv
 * does not hold them), and their why rows and stacks kept beside the
 * plan's.
 *
 * The one idea: which levels to profile is read from the rows by the one
 * function that builds every curve the page and the plot show
 * (curves_of_rows), per variant and CPU count, so the knee profiled is the
 * knee shown, and each curve's levels are profiled at its own CPU count
 * only. Each extra level is held and run as a planned one
 * (sweep_level.c) with the collectors told to profile it (sweep_why.c). It
 * is called by sweep.c after the plan and calls only down. It never
 * prints: sentences for the user go to w->on_note.
 */
#include <stdio.h>
#include <string.h>

#include "analysis/curves.h"
#include "core/util.h"
#include "sweep/sweep.h"

/* The levels to profile: per (variant, CPU count) of the rows, that
 * curve's knee, the point before it and its peak, each with its role. */
struct target {
    int cpus, threads;
    char variant[32], role[16];
};

static int targets(const struct sweep *w, struct target *tg, int max)
{
    int nt = 0;
    for (int i = 0; i < w->nrows; i++) {
        const struct result_row *r = &w->rows[i];
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = w->rows[j].cpus == r->cpus && !strcmp(w->rows[j].variant, r->variant);
        if (seen)
            continue;
        struct curve c;
        curves_of_rows(w->rows, (size_t)w->nrows, r->variant, r->cpus, &c);
        if (c.k < 2)
            continue;
        struct {
            size_t i;
            const char *role;
        } want[3] = {{c.knee, "knee"}, {c.knee - 1, "before-knee"}, {c.peak, "peak"}};
        for (int j = 0; j < 3; j++) {
            /* no knee: only the peak; the knee's first point: nothing before it */
            if ((j < 2 && c.knee >= c.k) || (j == 1 && c.knee == 0) || nt == max)
                continue;
            int t = (int)c.n[want[j].i], have = 0;
            for (int q = 0; q < nt; q++)
                have |= tg[q].cpus == r->cpus && tg[q].threads == t &&
                        !strcmp(tg[q].variant, r->variant);
            if (have)
                continue;
            tg[nt] = (struct target){.cpus = r->cpus, .threads = t};
            snprintf(tg[nt].variant, sizeof tg[nt].variant, "%s", r->variant);
            snprintf(tg[nt].role, sizeof tg[nt].role, "%s", want[j].role);
            nt++;
        }
    }
    return nt;
}

/* One level outside the plan, profiled: the server held to the plan's
 * ki-th CPU count, threads connections; its figures in res and r, the
 * server's CPU over its window in *srv_cpu. As pool_run. */
static int extra_level(struct sweep *w, int ki, int threads, struct level_result *res,
                       struct why_result *r, double *srv_cpu, char *err, size_t errlen)
{
    char srv_list[256];
    memset(r, 0, sizeof *r);
    memset(res, 0, sizeof *res);
    if (sweep_hold(w, w->plan.kcpus[ki], srv_list, sizeof srv_list, err, errlen) < 0)
        return -1;
    memset(&w->win, 0, sizeof w->win);
    struct sweep_rank_fig *each = NULL;
    sweep_why_begin(w, srv_list, threads, 1);
    int rc = sweep_run_one(w, threads, res, &each);
    sweep_why_end(w, res, r);
    sweep_ranks_free(w, each);
    *srv_cpu = w->win.begun && w->win.ended && w->win.srv_cpu1 > w->win.srv_cpu0
                   ? w->win.srv_cpu1 - w->win.srv_cpu0
                   : 0;
    if (rc < 0)
        snprintf(err, errlen, "profiled level (cpus=%d threads=%d): %s", w->plan.kcpus[ki], threads,
                 res->fatal_msg);
    return rc;
}

int sweep_knee_run(struct sweep *w, char *err, size_t errlen)
{
    if (!w->why || sweep_why_profile_mode(w) != 2 || !why_can_profile(w->why) || *w->stop)
        return 0;
    struct target tg[48];
    int nt = targets(w, tg, 48);
    for (int ki = 0; ki < w->plan.nk && !*w->stop; ki++)
        for (int t = 0; t < nt && !*w->stop; t++) {
            char variant[64];
            sweep_variant(variant, sizeof variant, w->cfg.variant, w->facts.up, w->plan.kcpus[ki]);
            if (tg[t].cpus != w->plan.kcpus[ki] || strcmp(tg[t].variant, variant) != 0)
                continue; /* each curve's own levels, at its own CPU count */
            char msg[200];
            snprintf(msg, sizeof msg, "--profile=knee: cpus=%d threads=%d (%s), profiled",
                     tg[t].cpus, tg[t].threads, tg[t].role);
            sweep_why_note(msg, w);
            struct level_result res;
            struct why_result r;
            double srv_cpu = 0;
            int rc = extra_level(w, ki, tg[t].threads, &res, &r, &srv_cpu, err, errlen);
            if (rc < 0)
                return -1;
            if (rc == 0 && !*w->stop) {
                struct why_key k = {.cpus = tg[t].cpus, .threads = tg[t].threads, .repeat = 0};
                snprintf(k.variant, sizeof k.variant, "%s", variant);
                int wr = sweep_why_keep_key(w, &k, (double)res.txns, res.time_s, srv_cpu,
                                            tg[t].role, &r);
                if (wr < 0) {
                    snprintf(err, errlen, "cannot write the why files in %s: %s", w->out,
                             strerror(-wr));
                    why_result_free(&r);
                    level_result_free(&res);
                    return -1;
                }
            }
            why_result_free(&r);
            level_result_free(&res);
        }
    return 0;
}
