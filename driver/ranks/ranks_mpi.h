/*
 * ranks_mpi.h - the verbs of dbscale-mpi (driver/ranks/mpi_*.c, built only
 * into build/dbscale-mpi with Open MPI's mpicc).
 */
#ifndef DBSCALE_RANKS_MPI_H
#define DBSCALE_RANKS_MPI_H

#include <mpi.h>
#include <stddef.h>

/* `run WORKLOAD ...` over all ranks of MPI_COMM_WORLD; the exit code.
 * *agreed = 1 when every rank learnt the outcome through a collective (all
 * end alike and may finalize), 0 when this rank may have failed alone. */
int ranks_run_main(const char *verb, int argc, char **argv, int *agreed);

/* `sweep ...` over all ranks: rank 0 runs the sweep, the others follow
 * (mpi_sweep.c); *agreed as above. */
int ranks_sweep_main(int argc, char **argv, int *agreed);

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

#endif
