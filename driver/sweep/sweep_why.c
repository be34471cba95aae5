/*
 * sweep_why.c - the why collectors (driver/why/) beside the sweep's levels:
 * opened with the sweep's options, told each level's CPUs, connections and
 * window, and their rows keyed as the level's results.csv row is and kept in
 * the why files (whycsv.h) and profiles/NAME.folded after every level, the
 * plan's and --profile=knee's (sweep_knee.c, which keeps its levels' rows
 * through here under their own key and role).
 *
 * The collectors know no plan; this file is where the plan meets them. It
 * calls only down (the collectors, sweep_server.c for the server's
 * processes). It never prints: sentences for the user go to w->on_note.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sweep/sweep.h"
#include "core/util.h"

void sweep_why_note(const char *msg, void *arg)
{
    struct sweep *w = arg;
    if (w->on_note)
        w->on_note(msg, w->on_level_arg);
}

static int family(pid_t *out, int max, void *arg)
{
    return sweep_server_family(arg, out, max);
}

int sweep_why_profile_mode(const struct sweep *w)
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
    if (!strcmp(w->s.ops->name, "pgsql") &&
        !server_install_has_library(w->inst.daemon[0] ? &w->inst : NULL, "pg_wait_sampling"))
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
            sweep_why_note(err, w);
            whycsv_free(&w->whyf);
        }
    }
    w->whycfg = (struct why_cfg){
        .engine = w->s.ops->name,
        .target = &w->s.targets[0],
        .waits = w->cfg.waits,
        .hz = (int)w->cfg.wait_hz,
        .profile = sweep_why_profile_mode(w) != 0,
        .local = w->managed || w->ext_pid > 0,
        .pids = family,
        .pids_arg = w,
        .note = sweep_why_note,
        .note_arg = w,
    };
    w->why = why_open(&w->whycfg);
}

void sweep_why_begin(struct sweep *w, const char *srv_list, int threads, int profile)
{
    if (w->why)
        why_level_begin(w->why, srv_list, threads, profile || sweep_why_profile_mode(w) == 1);
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

/* Microseconds per transaction; NAN (not measured) when the level
 * completed none or v was not measured, never 0. */
static double per_txn(double v, double txns)
{
    return txns > 0 ? v * 1e6 / txns : NAN;
}

int sweep_why_keep_key(struct sweep *w, const struct why_key *k, double txns, double time_s,
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
        s.voluntary_txn = per_txn(s.voluntary, txns) / 1e6;
        s.involuntary_txn = per_txn(s.involuntary, txns) / 1e6;
        s.migrations_txn = per_txn(s.migrations, txns) / 1e6;
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
    return sweep_why_keep_key(w, &k, (double)res->txns, res->time_s, row->server_cpu_s, "level", r);
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
