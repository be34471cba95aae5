/*
 * verbs.h - the entry point of each verb, implemented by the room it names.
 * main.c only dispatches; every verb parses its own options (options.h).
 * Each returns the process exit code: 0 ok, 1 runtime failure, 2 bad input.
 */
#ifndef DBSCALE_VERBS_H
#define DBSCALE_VERBS_H

int oltp_main(const char *verb, int argc, char **argv); /* prepare, run, cleanup: oltp.c */
int sweep_main(int argc, char **argv);                  /* sweep.c */
int micro_main(int argc, char **argv);                  /* micro/micro.c */
int fs_main(int argc, char **argv);                     /* micro/fsbench.c */
int plot_main(int argc, char **argv);                   /* plot_verb.c */
int compare_main(int argc, char **argv);                /* compare_verb.c */
int server_main(int argc, char **argv);                 /* server_verb.c */
int report_main(int argc, char **argv);                 /* report_verb.c */

#endif
