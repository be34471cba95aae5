/*
 * ranks_mpi.h - dbscale-mpi's ranks (driver/ranks/mpi_*.c, built only into
 * build/dbscale-mpi with Open MPI's mpicc): the hooks that share a run or a
 * sweep over the ranks of MPI_COMM_WORLD. The verbs declare the hooks
 * (client/oltp.h's run_share, sweep/sweep.h's sweep_share) and dbscale-mpi's
 * main (driver/main_mpi.c) hands these to them: nothing here calls a verb.
 */
#ifndef DBSCALE_RANKS_MPI_H
#define DBSCALE_RANKS_MPI_H

#include <mpi.h>
#include <stddef.h>

#include "client/oltp.h"
#include "sweep/sweep.h"

/* `run`: this rank's hooks for oltp_run_shared in *sh (a collective: every
 * rank calls it). ranks_run_end frees the context after the run and
 * returns agreed: 1 when every rank learnt the outcome through a collective
 * (all end alike and may finalize), 0 when this rank may have failed
 * alone. */
struct ranks_run;
struct ranks_run *ranks_run_begin(struct run_share *sh);
int ranks_run_end(struct ranks_run *c);

/* `sweep` (mpi_sweep.c): rank 0's hooks for sweep_main_shared in *sh and
 * *lead = 1 on rank 0; every other rank follows rank 0 instead
 * (ranks_sweep_follow, with the sweep's option table, parsing the same
 * command line). ranks_sweep_end(c, rc): rank 0 tells the followers the
 * end if a way out of the sweep missed it; frees c, returns agreed as
 * above. */
struct ranks_sweep;
struct ranks_sweep *ranks_sweep_begin(struct sweep_share *sh, int *lead);
int ranks_sweep_follow(struct ranks_sweep *c, const struct optdef *defs, size_t nd, int argc,
                       char **argv);
int ranks_sweep_end(struct ranks_sweep *c, int rc);

/* Collective: this rank, the number of ranks, this rank's host (64 bytes)
 * and every rank's host (the caller frees it). mpi_run.c. */
char (*ranks_mpi_world(int *rank, int *nranks, char host[64]))[64];

/* Collective: ok = this rank's connections opened (else err says why). 0
 * when every rank's did, else -1 with (on rank 0) "rank N on HOST: why" in
 * err. mpi_run.c. */
int ranks_mpi_all_open(int rank, int nranks, const char *host, int ok, char *err, size_t errlen);

/* mpi_wait.c: waits with a deadline, for a rank that stops answering.
 * DBSCALE_MPI_HANG_S (default 20) s; a monotonic clock in s; a 1 ms nap;
 * a request done within secs (0) or not (-1: it stays pending, the job
 * must end); a barrier the same way. */
double ranks_mpi_hang_s(void);
double ranks_mpi_mono_s(void);
void ranks_mpi_nap(void);
int ranks_mpi_wait(MPI_Request *rq, double secs);
int ranks_mpi_barrier(double secs);
/* Without a deadline but without polling: a request done (Open MPI's own
 * waits spin, with sched_yield when ranks outnumber CPUs); a broadcast from
 * rank 0, every rank calling it (non-blocking underneath: it matches only
 * itself, never an MPI_Bcast). */
void ranks_mpi_done(MPI_Request *rq);
void ranks_mpi_bcast(void *buf, int count, MPI_Datatype type);

#endif
