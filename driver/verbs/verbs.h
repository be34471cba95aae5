/*
 * verbs.h - the entry point of each verb, implemented by the room it names.
 * main.c only dispatches; every verb parses its own options (options.h).
 * Each returns the process exit code: 0 ok, 1 runtime failure, 2 bad input.
 */
#ifndef DBSCALE_VERBS_H
#define DBSCALE_VERBS_H

#include <stddef.h>

int oltp_main(const char *verb, int argc, char **argv); /* prepare, run, cleanup: oltp_verb.c */
int sweep_main(int argc, char **argv);                  /* sweep_verb.c */
int micro_main(int argc, char **argv);                  /* micro_verb.c */
int fs_main(int argc, char **argv);                     /* fs_verb.c */
int plot_main(int argc, char **argv);                   /* plot_verb.c */
int compare_main(int argc, char **argv);                /* compare_verb.c */
int server_main(int argc, char **argv);                 /* server_verb.c */
int report_main(int argc, char **argv);                 /* report_verb.c */

/* The option tables the verbs parse, for the fuzzers (tests/fuzz/), which
 * must fuzz the real ones. oltp's is oltp_optdefs (oltp.h). */
struct optdef;
struct optdef *sweep_verb_optdefs(size_t *n); /* the caller frees it */

#endif
