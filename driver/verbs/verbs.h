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

/* A run whose connections are shared over processes (client/oltp.h's
 * run_share: dbscale-mpi's ranks fill it, driver/main_mpi.c passes it);
 * NULL runs exactly as oltp_main. */
struct run_share;
int oltp_run_shared(const char *verb, int argc, char **argv, const struct run_share *sh);
int sweep_main(int argc, char **argv); /* sweep_verb.c */
/* The sweep with its connections shared over ranks (sweep.h's sweep_share;
 * driver/main_mpi.c passes rank 0's); NULL runs exactly as sweep_main. */
struct sweep_share;
int sweep_main_shared(int argc, char **argv, const struct sweep_share *sh);
int micro_main(int argc, char **argv);   /* micro_verb.c */
int fs_main(int argc, char **argv);      /* fs_verb.c */
int plot_main(int argc, char **argv);    /* plot_verb.c */
int compare_main(int argc, char **argv); /* compare_verb.c */
int server_main(int argc, char **argv);  /* server_verb.c */
int report_main(int argc, char **argv);  /* report_verb.c */
int study_main(int argc, char **argv);   /* study_verb.c */
int kernels_main(int argc, char **argv); /* study_verb.c: study with a guest always */

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
const struct optdef *study_verb_optdefs(size_t *n);

#endif
