/*
 * mpi_wait.c - waiting on other ranks with a deadline: a rank that stops
 * answering without dying (SIGSTOP, a frozen host, a cut network) is not
 * seen by mpirun, and a collective would wait for it for ever. run and
 * sweep wait with these instead (never inside a measured window), and end
 * the job, naming who is missing, when the deadline passes.
 *
 * A rank that waits on another's work (rank 0 preparing tables, starting a
 * server on k CPUs, writing the page) waits here too, without a deadline:
 * Open MPI's blocking calls poll, and when ranks outnumber CPUs (one host,
 * --oversubscribe) they poll with sched_yield, a busy CPU for as long as
 * the wait lasts, taken from the server and from rank 0's kernel baseline
 * on the same host. A request tested every 1 ms costs next to nothing.
 */
#include <math.h>
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#include "ranks/ranks_mpi.h"

#define HANG_S 20.0 /* DBSCALE_MPI_HANG_S overrides it (the tests' short wait) */

double ranks_mpi_hang_s(void)
{
    const char *hs = getenv("DBSCALE_MPI_HANG_S");
    return hs && atof(hs) > 0 ? atof(hs) : HANG_S;
}

double ranks_mpi_mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ranks_mpi_nap(void)
{
    struct timespec ts = {0, 1000000}; /* 1 ms: a wait between levels, not in a window */
    nanosleep(&ts, NULL);
}

int ranks_mpi_wait(MPI_Request *rq, double secs)
{
    double until = ranks_mpi_mono_s() + secs;
    for (int done = 0;;) {
        MPI_Test(rq, &done, MPI_STATUS_IGNORE);
        if (done)
            return 0;
        if (ranks_mpi_mono_s() > until)
            return -1; /* the request stays pending: the job is to be aborted */
        ranks_mpi_nap();
    }
}

int ranks_mpi_barrier(double secs)
{
    MPI_Request rq;
    MPI_Ibarrier(MPI_COMM_WORLD, &rq);
    return ranks_mpi_wait(&rq, secs);
}

void ranks_mpi_done(MPI_Request *rq)
{
    ranks_mpi_wait(rq, HUGE_VAL);
}

void ranks_mpi_bcast(void *buf, int count, MPI_Datatype type)
{
    MPI_Request rq;
    MPI_Ibcast(buf, count, type, 0, MPI_COMM_WORLD, &rq);
    ranks_mpi_done(&rq);
}
