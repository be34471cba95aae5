/*
 * verb_table.h - every verb dbscale has, with the option table it parses, in
 * one list: the usage, the man page and the bash completion are all drawn
 * from it, so none of them can name a verb or an option the code lacks.
 */
#ifndef DBSCALE_VERB_TABLE_H
#define DBSCALE_VERB_TABLE_H

#include <stddef.h>

#include "core/options.h"

struct verb_info {
    const char *name;
    const char *args;    /* what follows the verb on the command line */
    const char *summary; /* one line */
};

extern const struct verb_info verb_table[];
extern const size_t verb_table_n;

/* The verb's entry, or NULL. */
const struct verb_info *verb_table_find(const char *name);
/* The options `dbscale VERB --help` lists, in table order: a malloc'd copy
 * the caller frees (the entries point into static tables). prepare, cleanup
 * and prewarm list only what they use, though they accept all of run's. */
struct optdef *verb_table_optdefs(const char *verb, size_t *n);
/* 1 when option name is one verb uses (see verb_table_optdefs). */
int verb_table_uses(const char *verb, const char *name);

/* One option as `dbscale VERB --help` shows it: opts_help decides which
 * are listed and how (so the man page and the completion, drawn from
 * these, say exactly what --help says). */
struct verb_opt {
    char *name;          /* without the leading -- */
    enum opt_type type;  /* the table's */
    const char *choices; /* OPT_CHOICE: "a|b|c" (static) */
    char *meta;          /* what follows '=': "N", "[on|off]", "STRING" ... */
    char *text;          /* the rest of the line: help, {choices}, [default] */
    char *def;           /* the trailing [default] of text, or "" */
};
/* VERB's listed options, in table order; free with verb_table_opts_free. */
struct verb_opt *verb_table_opts(const char *verb, size_t *n);
void verb_table_opts_free(struct verb_opt *v, size_t n);

#endif
