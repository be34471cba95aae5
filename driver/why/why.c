/*
 * why.c - the collectors of a level, run together: the CPU split and the
 * tasks (why_proc.c), the engine's waits (why_pg.c, why_my.c) and perf
 * (why_perf.c), each read at the window's two edges and subtracted.
 *
 * The one idea: every collector is cumulative and read at the edges, so what
 * they report covers exactly the window TPS covers, and nothing of ours runs
 * inside it but a sampler thread where the server offers no profile of its
 * own (its CPU is counted and handed back, so the sweep can take it off the
 * client's figure). Edges are taken in one order at both ends: perf first
 * (a write), then /proc, then the engine's queries (the slowest).
 *
 * Never prints and never fails a sweep: what cannot be collected is said
 * once through cfg.note, with its fix, and left out (why_note.c). This file
 * is the top of the room: it calls the collectors through their tables and
 * functions, and they call only down (why_note.c, why_result.c), never it.
 */
#include <pthread.h>
#include <sys/resource.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "why/why_internal.h"

#define MAX_PIDS 8192

struct why {
    struct why_cfg cfg;
    const struct why_waits_ops *wops;
    void *wst;
    int perf_ok, profiling, begun, ended, conns;
    char cpulist[256];
    struct why_perf perf;
    uint64_t t0, t1;
    struct why_stat st[2];
    struct why_tasks tk[2];
    pid_t *pids;
    int npids;
    double edge_user_s, edge_sys_s; /* the begin edge's own CPU: inside the client's window */
    struct why_notes notes;
};

/* ---- the collectors ---- */

static int server_pids(struct why *y)
{
    y->npids = y->cfg.local && y->cfg.pids ? y->cfg.pids(y->pids, MAX_PIDS, y->cfg.pids_arg) : 0;
    if (y->npids < 0)
        y->npids = 0;
    return y->npids;
}

int why_check_waits(const char *engine, const char *waits, char *err, size_t errlen)
{
    static const char *const pg[] = {"auto", "off", "pg_wait_sampling", "pg_stat_activity", NULL};
    static const char *const my[] = {"auto", "off", "performance_schema", NULL};
    const char *const *ok = !strcmp(engine, "pgsql") ? pg : my;
    for (int i = 0; waits && ok[i]; i++)
        if (!strcmp(waits, ok[i]))
            return 0;
    snprintf(
        err, errlen, "--waits: '%s' is not a wait source of %s (%s)", waits ? waits : "", engine,
        ok == pg ? "auto|off|pg_wait_sampling|pg_stat_activity" : "auto|off|performance_schema");
    return -1;
}

struct why *why_open(const struct why_cfg *cfg)
{
    struct why *y = xcalloc(1, sizeof *y);
    y->cfg = *cfg;
    y->pids = xcalloc(MAX_PIDS, sizeof *y->pids);
    why_notes_open(&y->notes);
    const char *waits = cfg->waits ? cfg->waits : "auto";
    if (strcmp(waits, "off") != 0) {
        y->wops = !strcmp(cfg->engine, "pgsql")   ? &why_pg_waits
                  : !strcmp(cfg->engine, "mysql") ? &why_my_waits
                                                  : NULL;
        y->wst = y->wops ? y->wops->open(&y->cfg) : NULL;
    }
    if (!cfg->local)
        why_note(&y->cfg, "the server's processes are not known on this host (an external "
                          "server elsewhere, or give --server-pid): no CPU split, switches or "
                          "profiles; wait events only");
    if (cfg->profile) {
        char msg[512];
        if (!cfg->local || server_pids(y) <= 0)
            why_note(&y->cfg, "--profile: the server's processes are not on this host (give "
                              "--server-pid for an external one); no profiles");
        else if (why_perf_probe(y->pids, y->npids, msg, sizeof msg) < 0)
            why_note(&y->cfg, "--profile: %s; the sweep goes on without profiles", msg);
        else
            y->perf_ok = 1;
    }
    return y;
}

int why_can_profile(const struct why *y)
{
    return y->perf_ok;
}

void why_level_begin(struct why *y, const char *cpulist, int conns, int profile)
{
    snprintf(y->cpulist, sizeof y->cpulist, "%s", cpulist && y->cfg.local ? cpulist : "");
    y->conns = conns;
    y->begun = y->ended = 0;
    y->profiling = 0;
    if (y->wst)
        y->wops->level(y->wst, conns);
    if (profile && y->perf_ok && server_pids(y) > 0) {
        char err[512];
        if (why_perf_start(&y->perf, y->pids, y->npids, err, sizeof err) == 0)
            y->profiling = 1;
        else
            why_note(&y->cfg, "--profile: %s; this level is not profiled", err);
    }
}

static double tv(struct timeval t)
{
    return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

void why_window(struct why *y, int begin)
{
    int e = begin ? 0 : 1;
    if (!begin && !y->begun)
        return;
    struct rusage ru0, ru1;
    getrusage(RUSAGE_THREAD, &ru0);
    if (y->profiling)
        why_perf_enable(&y->perf, begin);
    if (begin)
        y->t0 = now_ns();
    else
        y->t1 = now_ns();
    why_stat_free(&y->st[e]);
    if (y->cpulist[0])
        why_stat_read(&y->st[e], y->cpulist);
    if (server_pids(y) > 0)
        why_tasks_read(&y->tk[e], y->pids, y->npids);
    else
        y->tk[e].n = 0;
    if (y->wst)
        y->wops->edge(y->wst, begin);
    if (begin) {
        y->begun = 1;
        /* the client's CPU is counted from just before this edge: what the
         * collectors did here is theirs, not the client's */
        getrusage(RUSAGE_THREAD, &ru1);
        y->edge_user_s = tv(ru1.ru_utime) - tv(ru0.ru_utime);
        y->edge_sys_s = tv(ru1.ru_stime) - tv(ru0.ru_stime);
    } else
        y->ended = 1;
}

void why_level_end(struct why *y, struct why_result *r)
{
    memset(r, 0, sizeof *r);
    if (y->begun && !y->ended) /* stopped inside its window: close it, keep nothing */
        why_window(y, 0), y->ended = 0;
    int whole = y->begun && y->ended;
    double window_s = whole ? (double)(y->t1 - y->t0) / 1e9 : 0;
    if (whole && y->st[0].n && y->st[1].n)
        why_stat_rows(&y->st[0], &y->st[1], r);
    if (whole && y->tk[1].n) {
        why_tasks_delta(&y->tk[0], &y->tk[1], &r->sched);
        r->has_sched = 1;
    }
    if (y->wst && y->begun)
        y->wops->end(y->wst, window_s, r);
    if (y->begun) {
        r->own_user_s += y->edge_user_s;
        r->own_sys_s += y->edge_sys_s;
    }
    if (y->profiling) {
        char err[512];
        y->profiling = 0;
        if (why_perf_stop(&y->perf, r, err, sizeof err) == 0 && whole)
            r->profiled = 1;
        else if (whole)
            why_note(&y->cfg, "--profile: %s; this level's profile is lost", err);
    }
    if (!whole) { /* nothing of a window that did not close is a measurement */
        double u = r->own_user_s, s = r->own_sys_s;
        why_result_free(r);
        r->own_user_s = u, r->own_sys_s = s;
    }
    y->begun = y->ended = 0;
}

void why_close(struct why *y)
{
    if (!y)
        return;
    if (y->wst)
        y->wops->close(y->wst);
    for (int i = 0; i < 2; i++) {
        why_stat_free(&y->st[i]);
        why_tasks_free(&y->tk[i]);
    }
    why_notes_close(&y->notes);
    free(y->pids);
    free(y);
}

json_t *why_meta(const struct why *y)
{
    json_t *o = json_object();
    const char *m = y->wst ? y->wops->method(y->wst) : "off";
    json_object_set_new(o, "waits", json_string(m));
    if (!strcmp(m, "pg_stat_activity"))
        json_object_set_new(o, "wait_hz", json_integer(y->cfg.hz));
    json_object_set_new(o, "cpu_split", json_boolean(y->cfg.local));
    json_object_set_new(o, "profile",
                        json_string(y->perf_ok ? "perf record -e cpu-clock -F 999 -g" : "off"));
    pthread_mutex_lock((pthread_mutex_t *)&y->notes.mu);
    json_object_set(o, "notes", y->notes.list);
    pthread_mutex_unlock((pthread_mutex_t *)&y->notes.mu);
    json_object_set_new(o, "files", whycsv_meta());
    return o;
}

const char *why_server_conf(const char *engine, const char *waits)
{
    if (!strcmp(engine, "pgsql"))
        return "shared_preload_libraries = 'pg_wait_sampling'\n"
               "pg_wait_sampling.profile_queries = off\n";
    /* performance_schema costs MariaDB 8-10% TPS at 64 connections here
     * (docs/why.md), so it is on only when asked for */
    if (!strcmp(engine, "mysql") && waits && !strcmp(waits, "performance_schema"))
        return "performance_schema = ON\n"
               "performance_schema_instrument = 'wait/synch/%=ON'\n";
    return "";
}
