/*
 * options_internal.h - what the option table (options.c) lends the two
 * sources of its values: the command line (options_argv.c) and config
 * files (options_ini.c). Included only by those three files; verbs read
 * options through options.h.
 *
 * Both sources end in opts_set(), so a value is checked once, the same
 * way, wherever it came from; the command line also needs to know, before
 * it takes a value, whether a name is in the table and what type it is.
 */
#ifndef DBSCALE_OPTIONS_INTERNAL_H
#define DBSCALE_OPTIONS_INTERNAL_H

#include <stddef.h>

#include "core/options.h"

/* '_' and '-' are one character in option names: a[0..len) names b. */
int opts_name_eq(const char *a, const char *b, size_t len);
/* The index of the option name[0..len) in o's table, or -1. */
long opts_find(const struct opts *o, const char *name, size_t len);
/* An alias's index resolved to the option it sets; any other index as it is. */
long opts_resolve(const struct opts *o, long i);
/* 1 when v is one of choices ("a|b|c"). */
int opts_choice_ok(const char *choices, const char *v);

#endif
