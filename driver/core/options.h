/*
 * options.h - one option vocabulary for the command line and INI config files.
 *
 * Each verb declares a table of optdef; the same names work as --name=value,
 * --name value, and "name = value" in a config file read with libinih. Values
 * are validated when set, so a bad one is reported with where it came from
 * (the option, or file:line) before any work starts.
 */
#ifndef DBSCALE_OPTIONS_H
#define DBSCALE_OPTIONS_H

#include "core/parse.h" /* the value parsers the validators use, for verbs too */

#include <stddef.h>
#include <stdio.h>

#include "core/util.h"

enum opt_type {
    OPT_INT,     /* whole number within [min, max] */
    OPT_NUM,     /* real number within [min, max] */
    OPT_BOOL,    /* on/off/true/false/yes/no/1/0; a bare --flag means on */
    OPT_STR,     /* free text */
    OPT_CHOICE,  /* one of choices, "a|b|c" */
    OPT_LIST,    /* may be repeated: a list of values (opts_list); never split on ',' */
    OPT_SECRET,  /* free text that is never printed (passwords) */
    OPT_COUNTS,  /* counts >= 1: "1,2,8", "1-64", "1-256:x2"; "4k" = 4 x a CPU count */
    OPT_SIZE,    /* whole number within [min, max], K/M/G/T suffix x1024 (sysbench's sizes) */
    OPT_ALIAS,   /* deprecated name: def names the option it sets; using it leaves
                    sysbench's warning (opts_warnings) */
    OPT_REFUSED, /* a sysbench option dbscale does not do: giving it is an error
                    whose reason is help; never listed by opts_help */
};

struct optdef {
    const char *name; /* long name without the leading -- */
    enum opt_type type;
    const char *def;     /* default as text, NULL for none */
    const char *help;    /* one line */
    const char *choices; /* OPT_CHOICE: "a|b|c" */
    double min, max;     /* OPT_INT/OPT_NUM bounds; min == max means unbounded */
};

struct opts {
    const struct optdef *defs;
    size_t n;
    char **val;   /* set value per def, NULL = default (OPT_LIST: the values joined
                     with ',', for display only) */
    char **where; /* "command line" or "FILE:LINE" */
    struct opts_list {
        char **v;
        size_t n;
    } * list;       /* per def: OPT_LIST values, one per time the option was given */
    char *warnings; /* lines for the verb to print (deprecated names used), or NULL */
};

void opts_init(struct opts *o, const struct optdef *defs, size_t n);
void opts_free(struct opts *o);

/*
 * Names match with '_' and '-' alike (sysbench's own help prints
 * --table_size), on the command line and in config files.
 *
 * Parse argv[first..argc). Positional words are collected in pos (up to
 * maxpos). If the table has a "config" option and it is given (as --config
 * or sysbench's --config-file), that file is read first, so the command line
 * overrides it.
 * Returns 0, 1 if --help was asked, or -1 with a message in err.
 */
int opts_parse_argv(struct opts *o, int argc, char **argv, int first, char **pos, int maxpos,
                    int *npos, char *err, size_t errlen);
/* Read an INI file; keys are option names, sections are ignored. sysbench's
 * --config-file format (name=value lines) is a subset. 0 or -1 + err. */
int opts_parse_ini(struct opts *o, const char *path, char *err, size_t errlen);
/* Set one value, validating it. where names the source for messages. */
int opts_set(struct opts *o, const char *name, const char *value, const char *where, char *err,
             size_t errlen);

/* What the verb should print on stderr before anything else (sysbench's
 * "WARNING: --max-time is deprecated, use --time instead" lines), or NULL. */
const char *opts_warnings(const struct opts *o);

const char *opts_str(const struct opts *o, const char *name); /* NULL if unset, no default */
long long opts_int(const struct opts *o, const char *name);
double opts_num(const struct opts *o, const char *name);
int opts_bool(const struct opts *o, const char *name);
int opts_isset(const struct opts *o, const char *name); /* set explicitly, not by default */
/* An OPT_LIST's values, one per time given (a comma inside a value stays);
 * unset, the default as one value, or none. */
const char *const *opts_list(const struct opts *o, const char *name, size_t *n);
/* The same values one per line (server config lines): malloc'd, or NULL
 * when there are none. */
char *opts_lines(const struct opts *o, const char *name);

/* fio's way into a typed struct: a binding names an option and where its
 * value goes in the struct (offsetof), as what type: OPT_STR a const char *
 * (NULL when unset without a default; it points into o), OPT_INT a long
 * long, OPT_NUM a double, OPT_BOOL an int. Read once where a verb sets up,
 * so the run paths hold typed fields and never look an option up by name. */
struct opt_bind {
    const char *name;
    enum opt_type as;
    size_t off;
};
/* Fill dst from o by b[0..n). 0, or -1 with err naming a binding the table
 * has no option for (or an unknown type): a bug found at set-up, not in a
 * level. */
int opts_bind(const struct opts *o, const struct opt_bind *b, size_t n, void *dst, char *err,
              size_t errlen);

/* --help text: one line per option with its default. */
void opts_help(const struct opts *o, FILE *f);
/* The effective option set as a JSON object body; secrets are never written. */
void opts_json(const struct opts *o, struct sbuf *b);

#endif
