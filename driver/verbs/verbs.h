/*
 * verbs.h - the entry point of each verb, implemented by the room it names.
 * main.c only dispatches; every verb parses its own options (options.h).
 * Each returns the process exit code: 0 ok, 1 runtime failure, 2 bad input.
 */
#ifndef DBSCALE_VERBS_H
#define DBSCALE_VERBS_H

#include <stddef.h>

int oltp_main(const char *verb, int argc, char **argv); /* prepare, run, cleanup: oltp_verb.c */
int prewarm_main(int argc, char **argv);                /* prewarm_verb.c */

/* How one `run` shares its work with other processes: dbscale-mpi's ranks
 * (ranks/mpi_run.c) fill it; a single process passes NULL and runs exactly
 * as oltp_main. Every callback is collective: all ranks call it. Only rank
 * 0 prints the header and the report. */
struct oltp_setup;
struct level_result;
struct run_share {
    int rank, nranks;
    void *arg;
    /* this rank's slice: threads becomes its connections; rate, seed and
     * application name set in s. -1 with err when the run cannot be split. */
    int (*slice)(struct oltp_setup *s, int *threads, char *err, size_t errlen, void *arg);
    /* ok = this rank's pool opened (else err says why): 0 when every rank's
     * did, else -1 with (on rank 0) the failing rank and host in err */
    int (*all_open)(int ok, char *err, size_t errlen, void *arg);
    void (*start)(void *arg); /* before the level: a barrier */
    /* this rank's result and pool_run status in; on rank 0 r becomes the
     * reduction of all ranks; returns the merged status on every rank */
    int (*reduce)(struct level_result *r, int status, void *arg);
};
int oltp_run_shared(const char *verb, int argc, char **argv, const struct run_share *sh);
int sweep_main(int argc, char **argv); /* sweep_verb.c */
/* The sweep with its connections shared over ranks (sweep.h's sweep_share;
 * dbscale-mpi's rank 0 calls it); NULL runs exactly as sweep_main. */
struct sweep_share;
int sweep_main_shared(int argc, char **argv, const struct sweep_share *sh);
int micro_main(int argc, char **argv);   /* micro_verb.c */
int fs_main(int argc, char **argv);      /* fs_verb.c */
int plot_main(int argc, char **argv);    /* plot_verb.c */
int compare_main(int argc, char **argv); /* compare_verb.c */
int server_main(int argc, char **argv);  /* server_verb.c */
int report_main(int argc, char **argv);  /* report_verb.c */
int kernels_main(int argc, char **argv); /* kernels_verb.c */

/* The option tables the verbs parse, for the fuzzers (tests/fuzz/), which
 * must fuzz the real ones. oltp's is oltp_optdefs() (oltp.h). */
struct optdef;
struct optdef *sweep_verb_optdefs(size_t *n); /* the caller frees it */
/* The other verbs' tables as they are (static, never freed), for the man
 * page and the bash completion (verb_table.c). */
const struct optdef *plot_verb_optdefs(size_t *n);
const struct optdef *compare_verb_optdefs(size_t *n);
const struct optdef *report_verb_optdefs(size_t *n);
const struct optdef *fs_verb_optdefs(size_t *n);
const struct optdef *micro_verb_optdefs(size_t *n);
const struct optdef *server_verb_optdefs(size_t *n);
const struct optdef *kernels_verb_optdefs(size_t *n);

#endif
