/*
 * mpi_run.c - `dbscale-mpi run`: one run whose connections are shared by
 * MPI ranks, reported once by rank 0.
 *
 * The one idea: the single-process run (verbs/oltp_verb.c) is reused whole;
 * this file only fills its run_share hooks (client/oltp.h) with MPI
 * collectives, and dbscale-mpi's main (driver/main_mpi.c) hands them to the
 * verb, so nothing here calls up into the verbs: the slice
 * of --threads/--rate/seed per rank, one gather after the connections open
 * (a rank that cannot connect fails the run before the level, with its host
 * named), a barrier before the warmup and one before the measured window
 * (worker_cfg.before_window), one gather of the results after it. Those
 * after the connections open wait with a deadline (mpi_wait.c): a rank that
 * stops answering is named by rank 0 and the job is ended, not waited for.
 * Nothing here talks MPI while a level runs: the measured window has no MPI
 * traffic. Never built into the plain dbscale.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/oltp.h"
#include "ranks/ranks.h"
#include "ranks/ranks_mpi.h"
#include "core/util.h"

struct ranks_run {
    int rank, nranks;
    char host[64];
    char (*hosts)[64]; /* every rank's host */
    char app[32];      /* dbscale-rank-N: counted at the server by the tests */
    int agreed;        /* every rank knows how the run ended (a collective said so) */
    double hang_s;     /* a rank silent this long (plus the level) is given up */
    double level_t0;   /* when the level started, monotonic s */
};

/* worker_cfg.before_window: the measured windows start together too. A
 * rank that never comes (stopped) is named after the level, in reduce. */
static void window_barrier(void *arg)
{
    struct ranks_run *c = arg;
    ranks_mpi_barrier(c->hang_s);
}

static int slice_mine(struct ranks_run *c, struct oltp_setup *s, int *threads, char *err,
                      size_t errlen)
{
    if (s->wcfg.rep.interval_s > 0) {
        /* a run's interval lines are live progress: reduced across ranks
         * they could only be printed after the level (no MPI traffic in the
         * window), which would be a replay, not a report. The sweep keeps
         * them instead: reduced after each level into intervals.csv. */
        snprintf(err, errlen,
                 "--report-interval: dbscale-mpi run cannot print interval lines as they "
                 "happen (no rank talks to another during the window); dbscale-mpi sweep "
                 "keeps them, summed over the ranks, in intervals.csv");
        return -1;
    }
    if (ranks_check_split(*threads, s->wcfg.rate, c->nranks, err, errlen) < 0)
        return -1;
    if (s->wcfg.events > 0 && s->wcfg.events < c->nranks) {
        snprintf(err, errlen, "--events=%lld over %d ranks: every rank needs at least one",
                 s->wcfg.events, c->nranks);
        return -1;
    }
    /* --events is a total too: each rank stops after its share */
    s->wcfg.events = ranks_share(s->wcfg.events, c->nranks, c->rank);
    *threads = (int)ranks_share(*threads, c->nranks, c->rank);
    s->wcfg.rate = ranks_rate_share(s->wcfg.rate, c->nranks, c->rank);
    s->wcfg.seed = ranks_seed(s->wcfg.seed, c->rank);
    snprintf(c->app, sizeof c->app, "dbscale-rank-%d", c->rank);
    for (int i = 0; i < s->ntargets; i++)
        s->targets[i].app_name = c->app;
    s->wcfg.before_window = window_barrier;
    s->wcfg.before_window_arg = c;
    return 0;
}

static int slice(struct oltp_setup *s, int *threads, char *err, size_t errlen, void *arg)
{
    struct ranks_run *c = arg;
    int bad = slice_mine(c, s, threads, err, errlen) < 0, any = 0;
    /* agreed by all, so a refusal ends every rank alike and rank 0's
     * message is printed before the job ends */
    MPI_Request rq; /* every wait here without polling: ranks_mpi.h */
    MPI_Iallreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD, &rq);
    ranks_mpi_done(&rq);
    if (any && !bad)
        snprintf(err, errlen, "another rank refused its share of the run");
    c->agreed = any;
    return any ? -1 : 0;
}

char (*ranks_mpi_world(int *rank, int *nranks, char host[64]))[64]
{
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, nranks);
    int len = 0;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(name, &len);
    snprintf(host, 64, "%.*s", len, name);
    char(*hosts)[64] = xcalloc((size_t)*nranks, sizeof *hosts);
    MPI_Request rq;
    MPI_Iallgather(host, 64, MPI_CHAR, hosts, 64, MPI_CHAR, MPI_COMM_WORLD, &rq);
    ranks_mpi_done(&rq);
    return hosts;
}

struct open_msg {
    int ok;
    char host[64];
    char msg[700];
};

int ranks_mpi_all_open(int rank, int nranks, const char *host, int ok, char *err, size_t errlen)
{
    struct open_msg mine = {.ok = ok};
    snprintf(mine.host, sizeof mine.host, "%s", host);
    if (!ok)
        snprintf(mine.msg, sizeof mine.msg, "%s", err);
    struct open_msg *all = rank == 0 ? xmalloc(sizeof *all * (size_t)nranks) : NULL;
    /* the others wait here while rank 0 opens its share (seconds at 1024) */
    MPI_Request rq;
    MPI_Igather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0,
                MPI_COMM_WORLD, &rq);
    ranks_mpi_done(&rq);
    int every = 0;
    MPI_Iallreduce(&ok, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD, &rq);
    ranks_mpi_done(&rq);
    if (rank == 0 && !every) {
        for (int r = 0; r < nranks; r++)
            if (!all[r].ok) {
                snprintf(err, errlen, "rank %d on %s: %s", r, all[r].host, all[r].msg);
                break;
            }
    } else if (!every && ok) {
        snprintf(err, errlen, "another rank could not open its connections");
    }
    free(all);
    return every ? 0 : -1;
}

static int all_open(int ok, char *err, size_t errlen, void *arg)
{
    struct ranks_run *c = arg;
    int rc = ranks_mpi_all_open(c->rank, c->nranks, c->host, ok, err, errlen);
    c->agreed = rc < 0; /* a refusal all share; success is decided later */
    return rc;
}

static void start(void *arg)
{
    struct ranks_run *c = arg;
    c->level_t0 = ranks_mpi_mono_s();
    ranks_mpi_barrier(c->hang_s); /* before the warmup; one missing is named in reduce */
}

enum { TAG_PART = 8 };

/* Rank 0: every other rank's part, until a deadline (a rank stopped or cut
 * off sends none: mpirun sees nothing die). 0, or -1 naming the missing in
 * r->fatal_msg (the figures are then rank 0's own part alone). */
static int gather_parts(struct ranks_run *c, struct rank_part *all, struct level_result *r)
{
    int n = c->nranks, *got = xcalloc((size_t)n, sizeof *got), have = 1;
    /* the others end their windows when rank 0 does (one barrier started
     * them); with --events a slower rank may need as long again */
    double now = ranks_mpi_mono_s(), until = now + c->hang_s + (now - c->level_t0);
    while (have < n) {
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_PART, MPI_COMM_WORLD, &flag, &st);
        if (!flag) {
            if (ranks_mpi_mono_s() > until)
                break;
            ranks_mpi_nap();
            continue;
        }
        MPI_Recv(&all[st.MPI_SOURCE], (int)sizeof *all, MPI_BYTE, st.MPI_SOURCE, TAG_PART,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        have += !got[st.MPI_SOURCE];
        got[st.MPI_SOURCE] = 1;
    }
    struct sbuf missing = {0};
    for (int k = 1; k < n; k++)
        if (!got[k])
            sbuf_printf(&missing, "%srank %d on %s", missing.len ? ", " : "", k, c->hosts[k]);
    if (missing.len)
        snprintf(r->fatal_msg, sizeof r->fatal_msg,
                 "%s sent no result within %.0f s of the level's end (stopped answering: hung "
                 "or cut off); the figures below are rank 0's alone",
                 missing.s, until - now);
    sbuf_free(&missing);
    free(got);
    return have == n ? 0 : -1;
}

static int reduce(struct level_result *r, int status, void *arg)
{
    struct ranks_run *c = arg;
    struct rank_part *mine = xmalloc(sizeof *mine);
    ranks_pack(mine, r, c->rank, c->host, status);
    int merged = status;
    if (c->rank != 0) {
        MPI_Send(mine, (int)sizeof *mine, MPI_BYTE, 0, TAG_PART, MPI_COMM_WORLD);
        free(mine);
        MPI_Request rq;
        MPI_Ibcast(&merged, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
        /* rank 0 gives up on a silent rank and ends the job; if rank 0 is
         * the silent one, this rank ends it */
        if (ranks_mpi_wait(&rq, 2 * c->hang_s + (ranks_mpi_mono_s() - c->level_t0)) < 0) {
            snprintf(r->fatal_msg, sizeof r->fatal_msg,
                     "rank 0 on %s sent no outcome (stopped answering: hung or cut off)",
                     c->hosts[0]);
            fprintf(stderr, "dbscale-mpi run: rank %d: %s\n", c->rank, r->fatal_msg);
            c->agreed = 0;
            return -1;
        }
        c->agreed = 1;
        return merged;
    }
    struct rank_part *all = xmalloc(sizeof *all * (size_t)c->nranks);
    all[0] = *mine;
    if (gather_parts(c, all, r) < 0) {
        c->agreed = 0; /* no collective may follow: the job is aborted */
        free(all);
        free(mine);
        return -1;
    }
    struct level_result m;
    merged = ranks_merge(&m, all, c->nranks);
    m.interrupted |= r->interrupted;
    level_result_free(r);
    *r = m;
    MPI_Request rq; /* non-blocking as the others' (collectives must match) */
    MPI_Ibcast(&merged, 1, MPI_INT, 0, MPI_COMM_WORLD, &rq);
    ranks_mpi_done(&rq);
    c->agreed = 1;
    free(all);
    free(mine);
    return merged;
}

struct ranks_run *ranks_run_begin(struct run_share *sh)
{
    struct ranks_run *c = xcalloc(1, sizeof *c);
    c->hosts = ranks_mpi_world(&c->rank, &c->nranks, c->host);
    c->hang_s = ranks_mpi_hang_s();
    *sh = (struct run_share){
        .rank = c->rank,
        .nranks = c->nranks,
        .arg = c,
        .slice = slice,
        .all_open = all_open,
        .start = start,
        .reduce = reduce,
    };
    return c;
}

int ranks_run_end(struct ranks_run *c)
{
    int agreed = c->agreed;
    free(c->hosts);
    free(c);
    return agreed;
}
