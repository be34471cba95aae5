/*
 * verb_args.h - the opening every verb taking positional arguments shares:
 * --help, a missing argument and a bad option handled one way.
 */
#ifndef DBSCALE_VERB_ARGS_H
#define DBSCALE_VERB_ARGS_H

#include "core/options.h"

/* Parse argv[1..] into o and pos. 1: go on, with *npos >= 1 positionals.
 * 0: return *code, o already freed, after usage and the option help went
 * to stdout for --help (code 0) or to stderr when no positional was given
 * (EXIT_USAGE). A bad option dies with EXIT_USAGE. */
int verb_args_parse(struct opts *o, int argc, char **argv, char **pos, int maxpos, int *npos,
                    const char *usage, int *code);

#endif
