/*
 * verb_args.c - a verb's command line up to its positional arguments.
 *
 * The one idea: --help is an answer (stdout, exit 0), a verb with nothing
 * to work on is a usage error (stderr, exit 2), and a bad option names
 * itself and exits 2; plot and compare say so with one piece of code.
 *
 * Never look at what the positionals mean: that is each verb's.
 */
#include "verbs/verb_args.h"

#include <stdio.h>

#include "core/util.h"

int verb_args_parse(struct opts *o, int argc, char **argv, char **pos, int maxpos, int *npos,
                    const char *usage, int *code)
{
    char err[1024];
    int rc = opts_parse_argv(o, argc, argv, 1, pos, maxpos, npos, err, sizeof err);
    if (rc == 1 || (rc == 0 && *npos == 0)) {
        FILE *f = rc == 1 ? stdout : stderr;
        fputs(usage, f);
        opts_help(o, f);
        opts_free(o);
        *code = rc == 1 ? 0 : EXIT_USAGE;
        return 0;
    }
    if (rc < 0) {
        opts_free(o);
        die(EXIT_USAGE, "%s", err);
    }
    return 1;
}
