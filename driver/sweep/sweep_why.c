/*
 * sweep_why.c - the why collectors (driver/why/) beside the sweep's levels:
 * opened with the sweep's options, told each level's CPUs, connections and
 * window, and their rows keyed as the level's results.csv row is and kept in
 * the why files (whycsv.h) and profiles/NAME.folded after every level. With
 * --profile=knee the levels around each curve's knee and peak are run once
 * more, profiled, after the plan (repeat 0: results.csv does not hold them).
 *
 * The collectors know no plan; this file is where the plan meets them. It
 * never prints: sentences for the user go to w->on_note.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "stats/stats.h"
#include "sweep/sweep.h"
#include "core/util.h"

static void note(const char *msg, void *arg)
{
    struct sweep *w = arg;
    if (w->on_note)
        w->on_note(msg, w->on_level_arg);
}

static int family(pid_t *out, int max, void *arg)
{
    return sweep_server_family(arg, out, max);
}

/* 0 none, 1 every level, 2 around the knee */
static int profile_mode(const struct sweep *w)
{
    const char *p = w->cfg.profile;
    if (!p || !strcmp(p, "off"))
        return 0;
    return !strcmp(p, "knee") ? 2 : 1;
}

const char *sweep_why_server_conf(const struct sweep *w)
{
    const char *why = w->cfg.why;
    if (why && !strcmp(why, "off"))
        return "";
    if (!strcmp(w->s.ops->name, "pgsql") && !server_pg_has_library("pg_wait_sampling"))
        return ""; /* not installed: the sampler reads pg_stat_activity instead */
    return why_server_conf(w->s.ops->name, w->cfg.waits);
}

void sweep_why_open(struct sweep *w)
{
    const char *why = w->cfg.why;
    if (why && !strcmp(why, "off"))
        return;
    if (w->nold) { /* --append: the earlier runs' rows stay in the files */
        char err[600];
        if (whycsv_read(w->out, &w->whyf, err, sizeof err) < 0) {
            note(err, w);
            whycsv_free(&w->whyf);
        }
    }
    w->whycfg = (struct why_cfg){
        .engine = w->s.ops->name,
        .target = &w->s.targets[0],
        .waits = w->cfg.waits,
        .hz = (int)w->cfg.wait_hz,
        .profile = profile_mode(w) != 0,
        .local = w->managed || w->ext_pid > 0,
        .pids = family,
        .pids_arg = w,
        .note = note,
        .note_arg = w,
    };
    w->why = why_open(&w->whycfg);
}

void sweep_why_begin(struct sweep *w, const char *srv_list, int threads, int profile)
{
    if (w->why)
        why_level_begin(w->why, srv_list, threads, profile || profile_mode(w) == 1);
}

void sweep_why_window(struct sweep *w, int begin)
{
    if (w->why)
        why_window(w->why, begin);
}

void sweep_why_end(struct sweep *w, struct level_result *res, struct why_result *r)
{
    memset(r, 0, sizeof *r);
    if (!w->why)
        return;
    why_level_end(w->why, r);
    /* the collectors' thread is not the client: its CPU comes off the figure */
    res->client_user_s = fmax(0, res->client_user_s - r->own_user_s);
    res->client_sys_s = fmax(0, res->client_sys_s - r->own_sys_s);
}

static double per_txn(double v, double txns)
{
    return txns > 0 ? v * 1e6 / txns : 0;
}

/* The level's rows into the files; its folded stacks beside them. */
static int keep(struct sweep *w, const struct why_key *k, double txns, double time_s,
                double srv_cpu, const char *role, struct why_result *r)
{
    for (int i = 0; i < r->ncpu; i++) {
        struct why_cpu c = r->cpu[i];
        c.k = *k;
        for (int f = 0; f < WHY_NCPUF; f++)
            c.us_txn[f] = per_txn(c.s[f], txns);
        whycsv_add_cpu(&w->whyf, &c);
    }
    if (r->has_sched) {
        struct why_sched s = r->sched;
        s.k = *k;
        s.voluntary_txn = txns > 0 ? s.voluntary / txns : 0;
        s.involuntary_txn = txns > 0 ? s.involuntary / txns : 0;
        s.migrations_txn = txns > 0 ? s.migrations / txns : 0;
        s.user_us_txn = per_txn(s.user_s, txns);
        s.system_us_txn = per_txn(s.system_s, txns);
        s.run_us_txn = per_txn(s.run_s, txns);
        s.runq_us_txn = per_txn(s.runq_s, txns);
        whycsv_add_sched(&w->whyf, &s);
    }
    for (int i = 0; i < r->nwait; i++) {
        struct why_wait x = r->wait[i];
        x.k = *k;
        x.us_txn = per_txn(x.wait_s, txns);
        whycsv_add_wait(&w->whyf, &x);
    }
    if (r->profiled && r->folded) {
        struct why_prof p = r->prof;
        p.k = *k;
        snprintf(p.role, sizeof p.role, "%s", role);
        p.txns = txns, p.time_s = time_s, p.server_cpu_s = srv_cpu;
        char name[128], dir[1100], path[1300];
        whycsv_level_name(name, sizeof name, k);
        snprintf(p.folded, sizeof p.folded, "profiles/%s.folded", name);
        snprintf(dir, sizeof dir, "%s/profiles", w->out);
        snprintf(path, sizeof path, "%s/%s", w->out, p.folded);
        int rc = mkdir_p(dir, 0755);
        if (rc == 0)
            rc = write_file_atomic(path, r->folded, strlen(r->folded));
        if (rc < 0)
            return rc;
        whycsv_add_prof(&w->whyf, &p);
    }
    return w->why ? whycsv_write(w->out, &w->whyf) : 0;
}

int sweep_why_keep(struct sweep *w, const struct result_row *row, const struct level_result *res,
                   struct why_result *r)
{
    if (!w->why)
        return 0;
    struct why_key k = {.cpus = row->cpus, .threads = row->threads, .repeat = row->repeat};
    snprintf(k.variant, sizeof k.variant, "%s", row->variant);
    return keep(w, &k, (double)res->txns, res->time_s, row->server_cpu_s, "level", r);
}

/* ---- --profile=knee: the levels around each curve's knee and peak ---- */

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

int sweep_why_knee(struct sweep *w, char *err, size_t errlen)
{
    if (!w->why || profile_mode(w) != 2 || !why_can_profile(w->why) || *w->stop)
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
            note(msg, w);
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
                int wr = keep(w, &k, (double)res.txns, res.time_s, srv_cpu, role[t], &r);
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

json_t *sweep_why_meta(const struct sweep *w)
{
    return w->why ? why_meta(w->why) : NULL;
}

void sweep_why_close(struct sweep *w)
{
    why_close(w->why);
    w->why = NULL;
    whycsv_free(&w->whyf);
}
