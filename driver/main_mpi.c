/*
 * main_mpi.c - dbscale-mpi's main: MPI up, the verb on every rank, MPI down.
 *
 * The one idea: the MPI binary is the plain one's sources plus ranks/ and
 * this dispatcher; only verbs that know how to share their work over ranks
 * are offered. As main.c dispatches to the verbs, this one does too, with
 * the ranks' hooks (ranks_mpi.h) handed in: ranks/ sits below the verbs.
 * prepare and cleanup touch the tables once, so rank 0 alone runs them.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranks/ranks_mpi.h"
#include "core/util.h"
#include "verbs/verbs.h"

static void usage(FILE *f)
{
    fputs("dbscale-mpi " DBSCALE_VERSION " - one dbscale run over many client hosts (MPI)\n\n"
          "usage: mpirun -n RANKS [-H host1,host2,...] dbscale-mpi VERB [options]\n\n"
          "  run      WORKLOAD    --threads=N connections at the server, split over the\n"
          "                       ranks (remainder to the lowest); rank 0 reports all\n"
          "  sweep    [WORKLOAD]  the scaling sweep: rank 0 plans it, holds the server to\n"
          "                       k CPUs and writes the results (a row per rank too);\n"
          "                       every level's connections split over the ranks\n"
          "  prepare  WORKLOAD    create and load the tables (rank 0 only)\n"
          "  cleanup  WORKLOAD    drop them (rank 0 only)\n",
          f);
}

/* rank 0 runs the sweep with the ranks' hooks; the others follow it,
 * parsing the same command line with the sweep's table */
static int sweep_mpi(int argc, char **argv, int *agreed)
{
    struct sweep_share sh;
    int lead = 0, rc;
    struct ranks_sweep *c = ranks_sweep_begin(&sh, &lead);
    if (lead) {
        rc = sweep_main_shared(argc, argv, &sh);
    } else {
        size_t nd;
        struct optdef *defs = sweep_verb_optdefs(&nd);
        rc = ranks_sweep_follow(c, defs, nd, argc, argv);
        free(defs);
    }
    *agreed = ranks_sweep_end(c, rc);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int rc, agreed = 1;
    const char *v = argc > 1 ? argv[1] : "";
    if (!strcmp(v, "run")) {
        struct run_share sh;
        struct ranks_run *r = ranks_run_begin(&sh);
        rc = oltp_run_shared(v, argc - 1, argv + 1, &sh);
        agreed = ranks_run_end(r);
    } else if (!strcmp(v, "sweep")) {
        rc = sweep_mpi(argc - 1, argv + 1, &agreed);
    } else if (!strcmp(v, "prepare") || !strcmp(v, "cleanup")) {
        rc = rank == 0 ? oltp_main(v, argc - 1, argv + 1) : 0;
        ranks_mpi_bcast(&rc, 1, MPI_INT); /* the others wait for the load here */
    } else if (!strcmp(v, "--help") || !strcmp(v, "-h") || !strcmp(v, "help")) {
        if (rank == 0)
            usage(stdout);
        rc = 0;
    } else {
        if (rank == 0) {
            if (*v)
                fprintf(stderr, "dbscale-mpi: unknown verb '%s'\n", v);
            usage(stderr);
        }
        rc = EXIT_USAGE;
        agreed = 0; /* an MPMD launch may give other ranks a good verb */
    }
    if (rc != 0 && !agreed) {
        /* MPI_Finalize waits for every rank; one that fails alone (its own
         * command line refused, say) would leave the others waiting in a
         * collective for ever. Abort ends the whole job, as a failure must.
         * A failure all ranks agreed on finalizes instead, so rank 0's
         * message is printed before anything is killed. */
        fflush(stdout);
        fflush(stderr);
        MPI_Abort(MPI_COMM_WORLD, rc);
    }
    MPI_Finalize();
    return rc;
}
