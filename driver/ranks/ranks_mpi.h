/*
 * ranks_mpi.h - the verbs of dbscale-mpi (driver/ranks/mpi_*.c, built only
 * into build/dbscale-mpi with Open MPI's mpicc).
 */
#ifndef DBSCALE_RANKS_MPI_H
#define DBSCALE_RANKS_MPI_H

/* `run WORKLOAD ...` over all ranks of MPI_COMM_WORLD; the exit code.
 * *agreed = 1 when every rank learnt the outcome through a collective (all
 * end alike and may finalize), 0 when this rank may have failed alone. */
int ranks_run_main(const char *verb, int argc, char **argv, int *agreed);

#endif
