/*
 * why_pg.c - where PostgreSQL's connections spent a window: the share of
 * their time per wait event (wait_event_type:wait_event), and on CPU.
 *
 * Two sources, one arithmetic. pg_wait_sampling (when the server preloads
 * it; a managed server does) samples every process every profile_period ms
 * in the server: its cumulative profile is read at the window's edges and
 * subtracted. Its version 1.1 records waits only, so a backend's CPU is
 * the ticks it was not seen waiting, the tick count being the most-sampled
 * process's (a background process waits all the time). Otherwise a thread
 * of ours samples pg_stat_activity over a side connection at --wait-hz,
 * counts what it reached and its own CPU (taken off the client's figure
 * by the sweep). Either way a connection that sat in ClientRead the whole
 * window (one this level did not use) is left out, and only the
 * workload's role's client backends count.
 *
 * Never blocks the timing thread for long: every query has a deadline, and
 * a server that stops answering turns the collector off with a note.
 */
#include <libpq-fe.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "engines/db_pgsql_conn.h"
#include "why/why_internal.h"

#define QUERY_MS 3000

/* A process's counts per event, over a window (or cumulative). */
struct pgw_proc {
    int pid, client;
    double seen; /* samples in which it appeared (the sampler's) */
    struct why_counts ev;
};
struct pgw_prof {
    struct pgw_proc *p;
    int n, cap, hint;
};

struct pgw {
    const struct why_cfg *cfg;
    PGconn *c; /* the edges' (pg_wait_sampling) */
    int ext, self_pid, broken;
    double period_ms;
    struct pgw_prof s0, s1;
    /* the pg_stat_activity sampler */
    PGconn *sc;
    int sc_pid;
    pthread_t th;
    int th_up, on, quit, counting;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct pgw_prof acc;
    double ticks;
    uint64_t t0, t1;
    struct rusage ru0, ru1;
};

/* ---- queries with a deadline ---- */

static PGresult *query(PGconn *c, const char *sql, int ms)
{
    if (!c || PQstatus(c) != CONNECTION_OK || !PQsendQuery(c, sql))
        return NULL;
    PGresult *last = NULL, *r;
    uint64_t end = now_ns() + (uint64_t)ms * 1000000ull;
    for (;;) {
        while (!PQisBusy(c)) {
            r = PQgetResult(c);
            if (!r)
                return last;
            PQclear(last);
            last = r;
        }
        uint64_t now = now_ns();
        struct pollfd pf = {PQsocket(c), POLLIN, 0};
        if (now >= end || poll(&pf, 1, (int)((end - now) / 1000000ull) + 1) < 0 ||
            !PQconsumeInput(c)) {
            PQclear(last);
            return NULL; /* too slow or gone: the caller gives up on c */
        }
    }
}

static int query_ok(PGresult *r)
{
    return r && PQresultStatus(r) == PGRES_TUPLES_OK;
}

/* ---- the per-process tables ---- */

static struct pgw_proc *proc_at(struct pgw_prof *pr, int pid)
{
    if (pr->hint < pr->n && pr->p[pr->hint].pid == pid)
        return &pr->p[pr->hint++]; /* rows come in the same order every time */
    for (int i = 0; i < pr->n; i++)
        if (pr->p[i].pid == pid) {
            pr->hint = i + 1;
            return &pr->p[i];
        }
    if (pr->n == pr->cap) {
        pr->cap = pr->cap ? pr->cap * 2 : 64;
        pr->p = xrealloc(pr->p, (size_t)pr->cap * sizeof *pr->p);
    }
    struct pgw_proc *p = &pr->p[pr->n++];
    memset(p, 0, sizeof *p);
    p->pid = pid;
    pr->hint = pr->n;
    return p;
}

static void prof_clear(struct pgw_prof *pr)
{
    for (int i = 0; i < pr->n; i++)
        why_counts_free(&pr->p[i].ev);
    pr->n = pr->hint = 0;
}

static void prof_free(struct pgw_prof *pr)
{
    prof_clear(pr);
    free(pr->p);
    memset(pr, 0, sizeof *pr);
}

static const char *event_class(const char *ev)
{
    if (!strcmp(ev, "CPU"))
        return "cpu";
    if (!strncmp(ev, "Lock:", 5) || !strncmp(ev, "LWLock:", 7) || !strncmp(ev, "BufferPin:", 10))
        return "lock";
    if (!strncmp(ev, "IO:", 3))
        return "io";
    if (!strncmp(ev, "Client:", 7))
        return "client";
    return "other";
}

/* ---- pg_wait_sampling: cumulative profiles at the edges ---- */

static int ext_snapshot(struct pgw *w, struct pgw_prof *pr)
{
    prof_clear(pr);
    PGresult *r = query(w->c,
                        "SELECT p.pid, coalesce(p.event_type, ''), coalesce(p.event, ''), "
                        "sum(p.count), bool_or(a.backend_type = 'client backend' AND a.usename = "
                        "current_user AND a.pid <> pg_backend_pid()) "
                        "FROM pg_wait_sampling_profile p LEFT JOIN pg_stat_activity a "
                        "ON a.pid = p.pid GROUP BY 1, 2, 3",
                        QUERY_MS);
    if (!query_ok(r)) {
        PQclear(r);
        return -1;
    }
    for (int i = 0; i < PQntuples(r); i++) {
        struct pgw_proc *p = proc_at(pr, atoi(PQgetvalue(r, i, 0)));
        char ev[96];
        snprintf(ev, sizeof ev, "%s:%s", PQgetvalue(r, i, 1), PQgetvalue(r, i, 2));
        *why_counts_at(&p->ev, ev) += atof(PQgetvalue(r, i, 3));
        p->client |= PQgetvalue(r, i, 4)[0] == 't';
    }
    PQclear(r);
    return 0;
}

/* s1 - s0 into acc, with the CPU ticks added; the tick count estimated. */
static void ext_delta(struct pgw *w, double window_s)
{
    prof_clear(&w->acc);
    double ticks = 0;
    for (int i = 0; i < w->s1.n; i++) {
        struct pgw_proc *b = &w->s1.p[i], *a = NULL;
        for (int j = 0; j < w->s0.n && !a; j++)
            if (w->s0.p[j].pid == b->pid)
                a = &w->s0.p[j];
        struct pgw_proc *d = proc_at(&w->acc, b->pid);
        d->client = b->client;
        double tot = 0;
        for (int e = 0; e < b->ev.n; e++) {
            double v = b->ev.v[e];
            if (a)
                for (int k = 0; k < a->ev.n; k++)
                    if (!strcmp(a->ev.name[k], b->ev.name[e]))
                        v -= a->ev.v[k];
            if (v > 0) {
                *why_counts_at(&d->ev, b->ev.name[e]) += v;
                tot += v;
            }
        }
        d->seen = tot;
        ticks = fmax(ticks, tot);
    }
    double nominal = w->period_ms > 0 ? window_s * 1000.0 / w->period_ms : 0;
    if (ticks <= 0 || ticks > nominal * 1.05)
        ticks = nominal; /* no process waited throughout */
    w->ticks = ticks;
    for (int i = 0; i < w->acc.n; i++) {
        struct pgw_proc *d = &w->acc.p[i];
        if (d->seen < ticks)
            *why_counts_at(&d->ev, "CPU") += ticks - d->seen;
        d->seen = ticks;
    }
}

/* ---- pg_stat_activity: the sampler thread ---- */

static void sample(struct pgw *w)
{
    PGresult *r = query(w->sc,
                        "SELECT pid, coalesce(wait_event_type, ''), coalesce(wait_event, '') "
                        "FROM pg_stat_activity WHERE backend_type = 'client backend' AND "
                        "usename = current_user AND pid <> pg_backend_pid()",
                        QUERY_MS);
    if (!query_ok(r)) {
        PQclear(r);
        w->broken = 1;
        return;
    }
    pthread_mutex_lock(&w->mu);
    w->ticks++;
    for (int i = 0; i < PQntuples(r); i++) {
        struct pgw_proc *p = proc_at(&w->acc, atoi(PQgetvalue(r, i, 0)));
        const char *t = PQgetvalue(r, i, 1);
        char ev[96];
        if (*t)
            snprintf(ev, sizeof ev, "%s:%s", t, PQgetvalue(r, i, 2));
        else
            snprintf(ev, sizeof ev, "CPU");
        *why_counts_at(&p->ev, ev) += 1;
        p->seen++;
        p->client = 1;
    }
    pthread_mutex_unlock(&w->mu);
    PQclear(r);
}

static void *sampler(void *arg)
{
    struct pgw *w = arg;
    uint64_t period = 1000000000ull / (uint64_t)(w->cfg->hz > 0 ? w->cfg->hz : 100), next = 0;
    pthread_mutex_lock(&w->mu);
    while (!w->quit) {
        if (!w->on || w->broken) {
            if (w->counting) { /* the window closed: the count ends here */
                w->t1 = now_ns();
                getrusage(RUSAGE_THREAD, &w->ru1);
                w->counting = 0;
                pthread_cond_broadcast(&w->cv);
            }
            pthread_cond_wait(&w->cv, &w->mu);
            continue;
        }
        if (!w->counting) {
            prof_clear(&w->acc);
            w->ticks = 0;
            w->t0 = next = now_ns();
            getrusage(RUSAGE_THREAD, &w->ru0);
            w->counting = 1;
        }
        pthread_mutex_unlock(&w->mu);
        sample(w);
        next += period;
        uint64_t now = now_ns();
        if (next + period < now) /* a whole tick behind: skip it, the rate says so */
            next = now;
        struct timespec ts = {(time_t)(next / 1000000000ull), (long)(next % 1000000000ull)};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
        pthread_mutex_lock(&w->mu);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* ---- the collector ---- */

static int self_pid(PGconn *c)
{
    return c ? PQbackendPID(c) : 0;
}

static PGconn *side_connect(const struct why_cfg *cfg)
{
    char err[512];
    struct db_target t = *cfg->target;
    t.app_name = "dbscale-why";
    PGconn *c = db_pgsql_connectdb(&t, err, sizeof err);
    if (!c || PQstatus(c) != CONNECTION_OK) {
        why_note(cfg, "PostgreSQL waits: cannot open a side connection (%s); no waits",
                 c ? PQerrorMessage(c) : err);
        PQfinish(c);
        return NULL;
    }
    PQclear(query(c, "SET application_name = 'dbscale-why'", QUERY_MS));
    return c;
}

/* The role may read every session's waits: pg_read_all_stats (in pg_monitor), or a superuser. */
static int may_read(struct pgw *w)
{
    PGresult *r = query(w->c,
                        "SELECT pg_has_role(current_user, 'pg_read_all_stats', 'USAGE') OR "
                        "rolsuper, current_user FROM pg_roles WHERE rolname = current_user",
                        QUERY_MS);
    int ok = query_ok(r) && PQntuples(r) == 1 && PQgetvalue(r, 0, 0)[0] == 't';
    if (!ok)
        why_note(w->cfg,
                 "PostgreSQL waits: role %s may not read other sessions' waits: GRANT pg_monitor "
                 "TO %s (as a superuser); the sweep goes on without waits",
                 query_ok(r) && PQntuples(r) == 1 ? PQgetvalue(r, 0, 1) : "?",
                 query_ok(r) && PQntuples(r) == 1 ? PQgetvalue(r, 0, 1) : "?");
    PQclear(r);
    return ok;
}

/* pg_wait_sampling is there, preloaded, per process: its period, or 0. */
static double ext_period(struct pgw *w)
{
    PGresult *r = query(w->c,
                        "SELECT current_setting('pg_wait_sampling.profile_period', true), "
                        "current_setting('pg_wait_sampling.profile_pid', true), "
                        "(SELECT count(*) FROM pg_wait_sampling_profile)",
                        QUERY_MS);
    double ms = 0;
    if (query_ok(r) && PQntuples(r) == 1 && !strcmp(PQgetvalue(r, 0, 1), "on"))
        ms = atof(PQgetvalue(r, 0, 0));
    PQclear(r);
    if (!ms) /* the failed statement left the connection usable */
        PQclear(query(w->c, "SELECT 1", QUERY_MS));
    return ms;
}

static void *pg_open(const struct why_cfg *cfg)
{
    struct pgw *w = xcalloc(1, sizeof *w);
    w->cfg = cfg;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->cv, NULL);
    w->c = side_connect(cfg);
    if (!w->c || !may_read(w)) {
        PQfinish(w->c);
        free(w);
        return NULL;
    }
    w->self_pid = self_pid(w->c);
    const char *want = cfg->waits ? cfg->waits : "auto";
    if (strcmp(want, "pg_stat_activity") != 0) {
        w->period_ms = ext_period(w);
        w->ext = w->period_ms > 0;
        if (!w->ext)
            why_note(cfg,
                     "PostgreSQL waits: pg_wait_sampling is not loaded (shared_preload_libraries "
                     "= 'pg_wait_sampling', CREATE EXTENSION pg_wait_sampling; a managed server "
                     "has it); sampling pg_stat_activity at %d Hz instead",
                     cfg->hz);
    }
    if (!w->ext) {
        w->sc = side_connect(cfg);
        w->sc_pid = self_pid(w->sc);
        if (!w->sc || pthread_create(&w->th, NULL, sampler, w) != 0) {
            PQfinish(w->sc);
            PQfinish(w->c);
            free(w);
            return NULL;
        }
        w->th_up = 1;
    }
    return w;
}

static void pg_level(void *p, int conns)
{
    (void)p;
    (void)conns;
}

static void pg_edge(void *p, int begin)
{
    struct pgw *w = p;
    if (w->broken)
        return;
    if (w->ext) {
        if (ext_snapshot(w, begin ? &w->s0 : &w->s1) < 0)
            w->broken = 1;
        return;
    }
    pthread_mutex_lock(&w->mu);
    w->on = begin;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
}

static double tv_s(struct timeval a, struct timeval b)
{
    return (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_usec - a.tv_usec) / 1e6;
}

static void pg_end(void *p, double window_s, struct why_result *r)
{
    struct pgw *w = p;
    double hz = 0, cpu = 0;
    if (w->ext) {
        if (w->broken) {
            why_note(w->cfg, "PostgreSQL waits: the server stopped answering the collector's "
                             "queries; no waits from here on");
            return;
        }
        ext_delta(w, window_s);
        hz = window_s > 0 ? w->ticks / window_s : 0;
    } else {
        pthread_mutex_lock(&w->mu);
        w->on = 0;
        pthread_cond_broadcast(&w->cv);
        while (w->counting) /* the sampler ends its count */
            pthread_cond_wait(&w->cv, &w->mu);
        pthread_mutex_unlock(&w->mu);
        double span = (double)(w->t1 - w->t0) / 1e9;
        hz = span > 0 ? w->ticks / span : 0;
        r->own_user_s += tv_s(w->ru0.ru_utime, w->ru1.ru_utime);
        r->own_sys_s += tv_s(w->ru0.ru_stime, w->ru1.ru_stime);
        cpu = tv_s(w->ru0.ru_utime, w->ru1.ru_utime) + tv_s(w->ru0.ru_stime, w->ru1.ru_stime);
        if (w->broken)
            why_note(w->cfg, "PostgreSQL waits: the server stopped answering the sampler; no "
                             "waits from here on");
        else if (w->cfg->hz > 0 && hz < 0.9 * w->cfg->hz)
            why_note(w->cfg,
                     "PostgreSQL waits: the pg_stat_activity sampler could not keep up: %.0f Hz "
                     "reached of the %d Hz asked (%.3f s of its CPU over a %.1f s window)",
                     hz, w->cfg->hz, cpu, window_s);
    }
    /* the level's connections: the role's client backends not idle all along */
    struct why_counts sum = {0};
    double total = 0;
    for (int i = 0; i < w->acc.n; i++) {
        struct pgw_proc *d = &w->acc.p[i];
        if (!d->client || d->pid == w->self_pid || d->pid == w->sc_pid || d->seen <= 0)
            continue;
        double idle = 0;
        for (int e = 0; e < d->ev.n; e++)
            if (!strcmp(d->ev.name[e], "Client:ClientRead"))
                idle = d->ev.v[e];
        if (idle >= 0.98 * d->seen)
            continue;
        for (int e = 0; e < d->ev.n; e++)
            *why_counts_at(&sum, d->ev.name[e]) += d->ev.v[e];
        total += d->seen;
    }
    for (int e = 0; e < sum.n && total > 0 && w->ticks > 0; e++) {
        struct why_wait *x = why_add_wait(r, w->ext ? "pg_wait_sampling" : "pg_stat_activity",
                                          sum.name[e], event_class(sum.name[e]));
        x->count = sum.v[e];
        x->share = sum.v[e] / total;
        x->wait_s = sum.v[e] / w->ticks * window_s;
        x->sampler_hz = hz;
        x->sampler_cpu_s = cpu;
    }
    why_counts_free(&sum);
}

static const char *pg_method(void *p)
{
    return ((struct pgw *)p)->ext ? "pg_wait_sampling" : "pg_stat_activity";
}

static void pg_close(void *p)
{
    struct pgw *w = p;
    if (w->th_up) {
        pthread_mutex_lock(&w->mu);
        w->quit = 1;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->th, NULL);
    }
    PQfinish(w->sc);
    PQfinish(w->c);
    prof_free(&w->s0);
    prof_free(&w->s1);
    prof_free(&w->acc);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    free(w);
}

const struct why_waits_ops why_pg_waits = {
    .engine = "pgsql",
    .open = pg_open,
    .level = pg_level,
    .edge = pg_edge,
    .end = pg_end,
    .method = pg_method,
    .close = pg_close,
};
