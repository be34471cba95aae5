/*
 * sweep_knee.c - --profile=knee: after the plan, the levels around each
 * curve's knee and peak run once more, profiled (repeat 0: results.csv
 * does not hold them), and their why rows and stacks kept beside the
 * plan's.
 *
 * The one idea: which levels to profile is read from this run's own rows
 * (median TPS per thread count, per variant and CPU count; stats_knee and
 * stats_peak), so a sweep profiles where its curve bends without being
 * told where. Each extra level is held and run as a planned one
 * (sweep_level.c) with the collectors told to profile it (sweep_why.c). It
 * is called by sweep.c after the plan and calls only down. It never
 * prints: sentences for the user go to w->on_note.
 */
#include <stdio.h>
#include <string.h>

#include "stats/stats.h"
#include "sweep/sweep.h"
#include "core/util.h"

#define MAXT 64

struct curve {
    char variant[32];
    int cpus, k;
    double n[MAXT], x[MAXT];
};

/* This run's curves: median TPS per thread count, per (variant, cpus). */
static int curves(const struct sweep *w, struct curve *cv, int max)
{
    int nc = 0;
    for (int i = w->nold; i < w->nrows; i++) {
        const struct result_row *r = &w->rows[i];
        int c = 0;
        while (c < nc && (cv[c].cpus != r->cpus || strcmp(cv[c].variant, r->variant)))
            c++;
        if (c == nc) {
            if (nc == max)
                continue;
            memset(&cv[nc], 0, sizeof cv[nc]);
            snprintf(cv[nc].variant, sizeof cv[nc].variant, "%s", r->variant);
            cv[nc++].cpus = r->cpus;
        }
        struct curve *u = &cv[c];
        int t = 0;
        while (t < u->k && u->n[t] != r->threads)
            t++;
        if (t == u->k && u->k < MAXT)
            u->n[u->k++] = r->threads;
    }
    for (int c = 0; c < nc; c++) {
        struct curve *u = &cv[c];
        for (int a = 0; a < u->k; a++) /* ascending threads */
            for (int b = a + 1; b < u->k; b++)
                if (u->n[b] < u->n[a]) {
                    double t = u->n[a];
                    u->n[a] = u->n[b], u->n[b] = t;
                }
        for (int t = 0; t < u->k; t++) {
            double v[1024];
            size_t nv = 0;
            for (int i = w->nold; i < w->nrows && nv < 1024; i++)
                if (w->rows[i].cpus == u->cpus && !strcmp(w->rows[i].variant, u->variant) &&
                    w->rows[i].threads == u->n[t])
                    v[nv++] = w->rows[i].tps;
            u->x[t] = stats_median(v, nv);
        }
    }
    return nc;
}

/* Thread counts to profile at every CPU count, each with its role. */
static int knee_threads(const struct curve *cv, int nc, int *th, char (*role)[16], int max)
{
    int nt = 0;
    for (int c = 0; c < nc; c++) {
        const struct curve *u = &cv[c];
        if (u->k < 2)
            continue;
        size_t knee = stats_knee(u->n, u->x, (size_t)u->k), peak = stats_peak(u->x, (size_t)u->k);
        struct {
            size_t i;
            const char *r;
        } want[3] = {{knee, "knee"}, {knee - 1, "before-knee"}, {peak, "peak"}};
        for (int j = 0; j < 3; j++) {
            if (want[j].i >= (size_t)u->k || (j == 1 && knee == 0) ||
                (j < 2 && knee >= (size_t)u->k))
                continue;
            int t = (int)u->n[want[j].i], at = 0;
            while (at < nt && th[at] != t)
                at++;
            if (at == nt && nt < max) {
                th[nt] = t;
                snprintf(role[nt++], 16, "%s", want[j].r);
            }
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
    struct curve cv[64];
    int nc = curves(w, cv, 64), th[16];
    char role[16][16];
    int nt = knee_threads(cv, nc, th, role, 16);
    for (int ki = 0; ki < w->plan.nk && !*w->stop; ki++)
        for (int t = 0; t < nt && !*w->stop; t++) {
            char msg[200], variant[64];
            snprintf(msg, sizeof msg, "--profile=knee: cpus=%d threads=%d (%s), profiled",
                     w->plan.kcpus[ki], th[t], role[t]);
            sweep_why_note(msg, w);
            sweep_variant(variant, sizeof variant, w->cfg.variant, w->facts.up, w->plan.kcpus[ki]);
            struct level_result res;
            struct why_result r;
            double srv_cpu = 0;
            int rc = extra_level(w, ki, th[t], &res, &r, &srv_cpu, err, errlen);
            if (rc < 0)
                return -1;
            if (rc == 0 && !*w->stop) {
                struct why_key k = {.cpus = w->plan.kcpus[ki], .threads = th[t], .repeat = 0};
                snprintf(k.variant, sizeof k.variant, "%s", variant);
                int wr =
                    sweep_why_keep_key(w, &k, (double)res.txns, res.time_s, srv_cpu, role[t], &r);
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
