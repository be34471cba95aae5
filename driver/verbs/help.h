/*
 * help.h - what dbscale says when asked: the overall usage, a verb's
 * options, the environment it reads, and sysbench's `WORKLOAD help`.
 */
#ifndef DBSCALE_HELP_H
#define DBSCALE_HELP_H

#include <stdio.h>

#include "core/options.h"

/* An environment variable dbscale (or a client library it drives) reads. */
struct help_env {
    const char *names; /* one, or several separated by ", " */
    const char *what;
    const char *verbs; /* the verbs it matters to, "prepare run ..."; NULL = all */
};
extern const struct help_env help_env_table[];
extern const size_t help_env_n;

/* The commands sysbench's oltp scripts take, in sysbench's words. */
#define HELP_COMMANDS       "prepare, prewarm, run, cleanup, help"
#define HELP_COMMANDS_WORDS "prepare prewarm run cleanup help"

/* `dbscale --help`. */
void help_usage(FILE *f);
/* The environment block of `dbscale VERB --help` (verb NULL: every one). */
void help_env_print(FILE *f, const char *verb);
/* The options block of `dbscale VERB --help`: those of o's table the verb
 * uses (verb_table_uses), then the environment it reads. */
void help_verb_options(FILE *f, const char *verb, const struct opts *o);
/* sysbench's `WORKLOAD help`: the workload's own options, sorted, with '_'
 * names and defaults, in sysbench's columns. -1 for an unknown workload. */
int help_workload(FILE *f, const char *workload);

#endif
