/*
 * mpi_sweep.c - `dbscale-mpi sweep`: one sweep whose connections are shared
 * by MPI ranks; rank 0 plans it, holds the server and writes the results.
 *
 * The one idea: rank 0 runs the single-process sweep (verbs/sweep_verb.c)
 * whole, with sweep_share hooks filled here (dbscale-mpi's main, driver/
 * main_mpi.c, hands them to the verb); every other rank only follows:
 * it waits for rank 0's next command (open the connections, run a level of
 * N, the end) and takes part in the collective that goes with it. So the
 * plan, the server, the CPU methods, the baseline and every file live on
 * rank 0 alone, and a follower needs no plan of its own (its host may have
 * other CPUs). Each level: a barrier before the warmup, one before the
 * measured window (worker_cfg.before_window), and after it every rank's
 * report (result, window start time, interval periods) to rank 0, which
 * waits for them with a deadline, so a rank that stops answering is named
 * instead of waited for. Nothing here talks MPI while a window is open.
 * Never built into the plain dbscale.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results/intervals.h"
#include "client/oltp.h"
#include "ranks/ranks.h"
#include "ranks/ranks_mpi.h"
#include "core/signals.h"
#include "sweep/sweep.h"
#include "core/util.h"

enum { CMD_OPEN = 1, CMD_LEVEL, CMD_END };

/* rank 0 -> all: what to do next. The managed server's address (and the
 * password it made) travel here, in memory, never on a command line. */
struct cmd {
    int kind, threads, rc, managed, port;
    char workload[128], host[256], socket[256], user[64], password[128], db[64];
};

#define MAX_PERIODS 4096 /* a level's --report-interval periods sent to rank 0 */

struct ranks_sweep {
    int rank, nranks;
    char host[64];
    char app[32];      /* dbscale-rank-N, as `run` names them */
    char (*hosts)[64]; /* every rank's host */
    double win_start;  /* this rank's wall clock when its window began */
    double level_t0;   /* rank 0: when the level was started, monotonic s */
    int hung;          /* a rank stopped answering: no collective may follow */
    struct cmd last;   /* the OPEN command: the targets point into it */
    int ended, agreed;
};

static void bcast(struct cmd *m)
{
    ranks_mpi_bcast(m, (int)sizeof *m, MPI_BYTE); /* a follower waits here between levels */
}

static void window_barrier(void *arg);

/* This rank's slice of the load: rate, seed, connection name, the barrier. */
static void slice_cfg(struct ranks_sweep *c, struct oltp_setup *s)
{
    s->wcfg.rate = ranks_rate_share(s->wcfg.rate, c->nranks, c->rank);
    s->wcfg.seed = ranks_seed(s->wcfg.seed, c->rank);
    s->wcfg.events = ranks_share(s->wcfg.events, c->nranks, c->rank);
    snprintf(c->app, sizeof c->app, "dbscale-rank-%d", c->rank);
    for (int i = 0; i < s->ntargets; i++)
        s->targets[i].app_name = c->app;
    s->wcfg.before_window = window_barrier;
    s->wcfg.before_window_arg = c;
}

/* A rank that stops answering without dying (frozen, a network cut) is
 * not seen by mpirun; collectives would wait for it for ever. So rank 0
 * waits with a deadline at the level's barriers and for the ranks' results
 * (never inside a window), names the missing ranks, and the job is ended
 * with MPI_Abort after rank 0 has kept what it has. */
static double hang_s; /* ranks_mpi_hang_s() */
#define mono_s ranks_mpi_mono_s
#define nap    ranks_mpi_nap

/* A barrier that gives up after secs: 0, or -1 (c->hung set). */
static int barrier(struct ranks_sweep *c, double secs)
{
    if (ranks_mpi_barrier(secs) == 0)
        return 0;
    c->hung = 1; /* the request stays pending: the job is aborted */
    return -1;
}

/* worker_cfg.before_window: every rank's window starts after the last
 * one is here */
static void window_barrier(void *arg)
{
    struct ranks_sweep *c = arg;
    barrier(c, hang_s);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    c->win_start = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One rank's report of a level: its part, window start and periods. */
struct report {
    struct rank_part part;
    double win_start;
    int np;
    struct interval_row rows[]; /* np of them */
};

enum { TAG_REPORT = 7 };

/* After a level: each rank sends its report to rank 0, which merges them
 * (each, skew and iv only there) and sends the merged status back. Rank 0
 * waits for the reports until a deadline; a rank missing then is named in
 * r->fatal_msg and -1 returned without telling the others (c->hung). */
static int reduce_level(struct ranks_sweep *c, struct level_result *r, int status,
                        struct sweep_rank_fig *each, double *skew, struct intervals *iv)
{
    int n = c->nranks;
    int np = iv ? (int)(iv->n < MAX_PERIODS ? iv->n : MAX_PERIODS) : 0;
    size_t sz = sizeof(struct report) + (size_t)np * sizeof(struct interval_row);
    struct report *mine = xmalloc(sz);
    ranks_pack(&mine->part, r, c->rank, c->host, status);
    mine->win_start = c->win_start;
    mine->np = np;
    if (np)
        memcpy(mine->rows, iv->rows, (size_t)np * sizeof *mine->rows);
    int merged = status;
    if (c->rank != 0) {
        MPI_Send(mine, (int)sz, MPI_BYTE, 0, TAG_REPORT, MPI_COMM_WORLD);
        free(mine);
        ranks_mpi_bcast(&merged, 1, MPI_INT);
        return merged;
    }
    struct report **got = xcalloc((size_t)n, sizeof *got);
    got[0] = mine;
    /* the others end their windows when rank 0 does (one barrier started
     * them); with --events a slower rank may need as long again */
    double now = mono_s(), until = now + hang_s + (now - c->level_t0);
    for (int have = 1; have < n;) {
        int flag = 0, cnt = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_REPORT, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            if (mono_s() > until)
                break;
            nap();
            continue;
        }
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        struct report *x = xmalloc((size_t)cnt);
        MPI_Recv(x, cnt, MPI_BYTE, st.MPI_SOURCE, TAG_REPORT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (got[st.MPI_SOURCE] || (size_t)cnt < sizeof *x) {
            free(x);
            continue;
        }
        got[st.MPI_SOURCE] = x;
        have++;
    }
    struct sbuf missing = {0};
    for (int k = 1; k < n; k++)
        if (!got[k])
            sbuf_printf(&missing, "%srank %d on %s", missing.len ? ", " : "", k, c->hosts[k]);
    if (missing.len) {
        snprintf(r->fatal_msg, sizeof r->fatal_msg,
                 "%s sent no result within %.0f s of the level's end (stopped answering: hung "
                 "or cut off)",
                 missing.s, until - now);
        c->hung = 1;
        merged = -1;
    } else {
        struct rank_part *all = xmalloc(sizeof *all * (size_t)n);
        const struct interval_row **per = xmalloc(sizeof *per * (size_t)n);
        size_t *pn = xmalloc(sizeof *pn * (size_t)n);
        double lo = 0, hi = 0;
        for (int k = 0; k < n; k++) {
            all[k] = got[k]->part;
            per[k] = got[k]->rows;
            pn[k] = (size_t)got[k]->np;
            double w = got[k]->win_start;
            lo = k == 0 || w < lo ? w : lo;
            hi = k == 0 || w > hi ? w : hi;
        }
        struct level_result m;
        merged = ranks_merge(&m, all, n);
        m.interrupted |= r->interrupted;
        level_result_free(r);
        *r = m;
        for (int k = 0; k < n; k++) {
            each[k].rank = all[k].rank;
            each[k].connections = all[k].threads;
            snprintf(each[k].host, sizeof each[k].host, "%s", all[k].host);
            each[k].window_start = got[k]->win_start;
            ranks_unpack(&each[k].res, &all[k]);
        }
        *skew = hi - lo;
        if (iv) {
            iv->n = 0; /* rank 0's own periods are among the reports */
            ranks_merge_intervals(iv, per, pn, n);
        }
        free(per);
        free(pn);
        free(all);
        ranks_mpi_bcast(&merged, 1, MPI_INT);
    }
    sbuf_free(&missing);
    for (int k = 0; k < n; k++)
        free(got[k]);
    free(got);
    return merged;
}

/* ---- rank 0's hooks (sweep_share) ---- */

static int r0_open(struct sweep *w, int maxthreads, int *mine, char *err, size_t errlen, void *arg)
{
    struct ranks_sweep *c = arg;
    int least = maxthreads;
    for (int i = 0; i < w->plan.nlevels; i++)
        least = w->plan.levels[i].threads < least ? w->plan.levels[i].threads : least;
    if (ranks_check_split(least, w->s.wcfg.rate, c->nranks, err, errlen) < 0)
        return -1; /* the others hear END from sweep_main_shared */
    struct cmd m = {.kind = CMD_OPEN, .managed = w->managed, .threads = maxthreads};
    snprintf(m.workload, sizeof m.workload, "%s", w->workload);
    if (w->managed) { /* the throwaway server's own address replaces the options' */
        const struct db_target *t = &w->s.targets[0];
        snprintf(m.host, sizeof m.host, "%s", t->host ? t->host : "");
        snprintf(m.socket, sizeof m.socket, "%s", t->socket ? t->socket : "");
        snprintf(m.user, sizeof m.user, "%s", t->user ? t->user : "");
        snprintf(m.password, sizeof m.password, "%s", t->password ? t->password : "");
        snprintf(m.db, sizeof m.db, "%s", t->db ? t->db : "");
        m.port = t->port;
    }
    bcast(&m);
    slice_cfg(c, &w->s);
    *mine = (int)ranks_share(maxthreads, c->nranks, 0);
    return 0;
}

static int r0_all_open(int ok, char *err, size_t errlen, void *arg)
{
    struct ranks_sweep *c = arg;
    return ranks_mpi_all_open(c->rank, c->nranks, c->host, ok, err, errlen);
}

static int r0_level(int threads, void *arg)
{
    struct ranks_sweep *c = arg;
    struct cmd m = {.kind = CMD_LEVEL, .threads = threads};
    c->level_t0 = mono_s();
    bcast(&m);
    barrier(c, hang_s); /* before the warmup; a rank missing shows in reduce */
    return (int)ranks_share(threads, c->nranks, 0);
}

static int r0_reduce(struct level_result *r, int status, struct sweep_rank_fig *each,
                     double *skew_s, struct intervals *iv, void *arg)
{
    return reduce_level(arg, r, status, each, skew_s, iv);
}

static void r0_end(int rc, void *arg)
{
    struct ranks_sweep *c = arg;
    if (c->ended)
        return;
    if (c->hung) { /* a collective would wait for the silent rank: abort */
        c->ended = 1;
        c->agreed = 0;
        return;
    }
    struct cmd m = {.kind = CMD_END, .rc = rc};
    bcast(&m);
    c->ended = c->agreed = 1;
}

static json_t *r0_meta(void *arg)
{
    struct ranks_sweep *c = arg;
    json_t *o = json_object(), *hs = json_array();
    for (int k = 0; k < c->nranks; k++)
        json_array_append_new(hs, json_string(c->hosts[k]));
    json_object_set_new(o, "ranks", json_integer(c->nranks));
    json_object_set_new(o, "hosts", hs);
    return o;
}

/* ---- the other ranks ---- */

/* worker_cfg.on_interval on a follower: its periods, sent after the level */
static void follower_interval(const struct interval_stats *st, void *arg)
{
    struct interval_row r = sweep_interval_row(st);
    intervals_add(arg, &r); /* read only after pool_run returned */
}

static void stop_pool(void *p)
{
    pool_stop(p);
}

/* Open this rank's share against the target rank 0 named. 1 ok, 0 with err. */
static int follower_open(struct ranks_sweep *c, struct opts *o, struct oltp_setup *s, int *have,
                         struct pool **p, struct intervals *iv, char *err, size_t errlen)
{
    const struct cmd *m = &c->last;
    if (oltp_setup(s, o, m->workload, err, errlen) < 0)
        return 0;
    *have = 1;
    if (m->managed) {
        struct db_target t = s->targets[0];
        t.host = m->host[0] ? m->host : NULL;
        t.socket = m->socket[0] ? m->socket : NULL;
        t.user = m->user[0] ? m->user : NULL;
        t.password = m->password[0] ? m->password : NULL;
        t.db = m->db[0] ? m->db : NULL;
        t.port = m->port;
        t.conninfo = NULL;
        s->targets[0] = t;
        s->ntargets = s->wcfg.ntargets = 1;
        s->wcfg.targets = s->targets;
    }
    slice_cfg(c, s);
    s->wcfg.rep.on_interval = follower_interval;
    s->wcfg.rep.on_interval_arg = iv;
    *p = pool_open(&s->wcfg, (int)ranks_share(m->threads, c->nranks, c->rank), err, errlen);
    return *p != NULL;
}

int ranks_sweep_follow(struct ranks_sweep *c, const struct optdef *defs, size_t nd, int argc,
                       char **argv)
{
    struct opts o;
    opts_init(&o, defs, nd);
    char err[1024] = "", *pos[1];
    int npos = 0, have = 0, rc = 0, slot = -1;
    /* the same command line as rank 0's: a refusal there ends the sweep
     * before OPEN; one only here is reported at OPEN */
    int parsed = opts_parse_argv(&o, argc, argv, 1, pos, 1, &npos, err, sizeof err) == 0;
    struct oltp_setup s;
    memset(&s, 0, sizeof s);
    struct pool *p = NULL;
    struct intervals iv = {0};
    signals_install();
    for (;;) {
        struct cmd m;
        bcast(&m);
        if (m.kind == CMD_END) {
            rc = m.rc;
            break;
        }
        if (m.kind == CMD_OPEN) {
            c->last = m;
            int ok = parsed && follower_open(c, &o, &s, &have, &p, &iv, err, sizeof err);
            if (!parsed && !err[0])
                snprintf(err, sizeof err, "its command line was refused");
            if (ranks_mpi_all_open(c->rank, c->nranks, c->host, ok, err, sizeof err) < 0 && p) {
                pool_close(p);
                p = NULL;
            }
            if (p)
                slot = signals_on_stop(stop_pool, p);
        } else if (m.kind == CMD_LEVEL) {
            /* before the warmup; non-blocking like rank 0's (a blocking
             * barrier would not match it); rank 0 alone gives up */
            barrier(c, 1e9);
            struct level_result res;
            memset(&res, 0, sizeof res);
            int st = -1;
            iv.n = 0;
            if (p) {
                st = pool_run(p, (int)ranks_share(m.threads, c->nranks, c->rank), &res);
            } else { /* cannot happen (all opened or no level); never hang rank 0 */
                snprintf(res.fatal_msg, sizeof res.fatal_msg, "no connections open");
                window_barrier(c);
            }
            reduce_level(c, &res, st, NULL, NULL, &iv);
            level_result_free(&res);
        }
    }
    if (slot >= 0)
        signals_off(slot);
    if (p)
        pool_close(p);
    intervals_free(&iv);
    if (have)
        oltp_setup_free(&s);
    opts_free(&o);
    c->agreed = 1;
    return rc;
}

struct ranks_sweep *ranks_sweep_begin(struct sweep_share *sh, int *lead)
{
    struct ranks_sweep *c = xcalloc(1, sizeof *c);
    c->hosts = ranks_mpi_world(&c->rank, &c->nranks, c->host);
    hang_s = ranks_mpi_hang_s();
    *sh = (struct sweep_share){
        .nranks = c->nranks,
        .arg = c,
        .open = r0_open,
        .all_open = r0_all_open,
        .level = r0_level,
        .reduce = r0_reduce,
        .end = r0_end,
        .meta = r0_meta,
    };
    *lead = c->rank == 0;
    return c;
}

int ranks_sweep_end(struct ranks_sweep *c, int rc)
{
    if (c->rank == 0)
        r0_end(rc, c); /* in case a way out missed it */
    int agreed = c->agreed;
    free(c->hosts);
    free(c);
    return agreed;
}
