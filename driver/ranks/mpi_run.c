/*
 * mpi_run.c - `dbscale-mpi run`: one run whose connections are shared by
 * MPI ranks, reported once by rank 0.
 *
 * The one idea: the single-process run (verbs/oltp_verb.c) is reused whole;
 * this file only fills its run_share hooks with MPI collectives: the slice
 * of --threads/--rate/seed per rank, one gather after the connections open
 * (a rank that cannot connect fails the run before the level, with its host
 * named), a barrier before the warmup and one before the measured window
 * (worker_cfg.before_window), one gather of the results after it.
 * Nothing here talks MPI while a level runs: the measured window has no MPI
 * traffic. Never built into the plain dbscale.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oltp.h"
#include "ranks.h"
#include "ranks_mpi.h"
#include "util.h"
#include "verbs.h"

struct mpi_ctx {
    int rank, nranks;
    char host[64];
    char app[32]; /* dbscale-rank-N: counted at the server by the tests */
    int agreed;   /* every rank knows how the run ended (a collective said so) */
};

/* worker_cfg.before_window: the measured windows start together too */
static void window_barrier(void *arg)
{
    (void)arg;
    MPI_Barrier(MPI_COMM_WORLD);
}

static int slice_mine(struct mpi_ctx *c, struct oltp_setup *s, int *threads, char *err,
                      size_t errlen)
{
    if (s->wcfg.report_interval > 0) {
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
    return 0;
}

static int slice(struct oltp_setup *s, int *threads, char *err, size_t errlen, void *arg)
{
    struct mpi_ctx *c = arg;
    int bad = slice_mine(c, s, threads, err, errlen) < 0, any = 0;
    /* agreed by all, so a refusal ends every rank alike and rank 0's
     * message is printed before the job ends */
    MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    if (any && !bad)
        snprintf(err, errlen, "another rank refused its share of the run");
    c->agreed = any;
    return any ? -1 : 0;
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
    MPI_Gather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0,
               MPI_COMM_WORLD);
    int every = 0;
    MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
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
    struct mpi_ctx *c = arg;
    int rc = ranks_mpi_all_open(c->rank, c->nranks, c->host, ok, err, errlen);
    c->agreed = rc < 0; /* a refusal all share; success is decided later */
    return rc;
}

static void start(void *arg)
{
    (void)arg;
    MPI_Barrier(MPI_COMM_WORLD); /* before the warmup */
}

static int reduce(struct level_result *r, int status, void *arg)
{
    struct mpi_ctx *c = arg;
    struct rank_part *mine = xmalloc(sizeof *mine);
    ranks_pack(mine, r, c->rank, c->host, status);
    struct rank_part *all = c->rank == 0 ? xmalloc(sizeof *all * (size_t)c->nranks) : NULL;
    MPI_Gather(mine, (int)sizeof *mine, MPI_BYTE, all, (int)sizeof *mine, MPI_BYTE, 0,
               MPI_COMM_WORLD);
    int merged = status;
    if (c->rank == 0) {
        struct level_result m;
        merged = ranks_merge(&m, all, c->nranks);
        m.interrupted |= r->interrupted;
        level_result_free(r);
        *r = m;
    }
    MPI_Bcast(&merged, 1, MPI_INT, 0, MPI_COMM_WORLD);
    c->agreed = 1;
    free(all);
    free(mine);
    return merged;
}

int ranks_run_main(const char *verb, int argc, char **argv, int *agreed)
{
    struct mpi_ctx c = {0};
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &c.nranks);
    int len = 0;
    char name[MPI_MAX_PROCESSOR_NAME];
    MPI_Get_processor_name(name, &len);
    snprintf(c.host, sizeof c.host, "%.*s", len, name);
    struct run_share sh = {
        .rank = c.rank,
        .nranks = c.nranks,
        .arg = &c,
        .slice = slice,
        .all_open = all_open,
        .start = start,
        .reduce = reduce,
    };
    int rc = oltp_run_shared(verb, argc, argv, &sh);
    *agreed = c.agreed;
    return rc;
}
