/*
 * plot_verb.c - `dbscale plot RESULTS_DIR... [--out DIR] [--format png,svg]`:
 * options in, curves_load() (analysis/curves.h) and plot_make() (plot/plot.h),
 * what they logged out, an exit code.
 *
 * The one idea: the curves and the plot room return everything they have to
 * say in a struct curves_log, so the same code can run inside a sweep without printing;
 * this verb alone decides what goes to stdout and stderr and that bad input
 * is exit 2, a failing machine or gnuplot exit 1.
 *
 * Never compute or draw here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "plot/plot.h"
#include "core/util.h"
#include "verbs/verb_args.h"
#include "verbs/verbs.h"

static const struct optdef plot_opts[] = {
    {"out", OPT_STR, NULL, "directory for graphs, data and scripts (default: FIRST_DIR/plots)"},
    {"format", OPT_STR, "png", "image formats, comma separated: png, svg"},
    {"label", OPT_LIST, NULL,
     "name of a results directory on the graphs, once per directory in order (default: its "
     "basename)"},
    {"log-y", OPT_BOOL, NULL,
     "log throughput axis (default: on when curves differ by more than 10x; --log-y=off never)"},
};

/* the table, for the man page and the completion (verb_table.c) */
const struct optdef *plot_verb_optdefs(size_t *n)
{
    *n = sizeof plot_opts / sizeof plot_opts[0];
    return plot_opts;
}

static int check_formats(const char *formats)
{
    char buf[64], *save = NULL;
    if (strlen(formats) >= sizeof buf)
        return -1;
    snprintf(buf, sizeof buf, "%s", formats);
    int n = 0;
    for (char *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save), n++)
        if (strcmp(f, "png") && strcmp(f, "svg"))
            return -1;
    return n > 0 ? 0 : -1;
}

int plot_main(int argc, char **argv)
{
    struct opts o;
    opts_init(&o, plot_opts, sizeof plot_opts / sizeof plot_opts[0]);
    char *pos[256];
    static const char usage[] =
        "usage: dbscale plot RESULTS_DIR... [--out DIR] [--format png,svg] [--label NAME]... "
        "[--log-y]\n";
    int npos, rc = 0;
    if (!verb_args_parse(&o, argc, argv, pos, 256, &npos, usage, &rc))
        return rc;
    const char *formats = opts_str(&o, "format");
    if (!formats)
        formats = "png";
    if (check_formats(formats) < 0) {
        warnx_("--format: '%s' is not a list of png, svg", formats);
        opts_free(&o);
        return EXIT_USAGE;
    }
    struct curves_log log = {0};
    struct plot_files written = {0};
    struct curves cv = {0};
    struct plot p = {0};
    cv.log = &log;
    cv.labels = opts_str(&o, "label");
    p.cv = &cv;
    p.written = &written;
    size_t nlab = 0; /* one per directory, in order: more name nothing and are refused */
    for (const char *l = cv.labels; l; l = strchr(l, ','), l = l ? l + 1 : NULL)
        nlab++;
    if (nlab > (size_t)npos) {
        warnx_("--label: %zu labels for %d results director%s (one per directory, in order)", nlab,
               npos, npos == 1 ? "y" : "ies");
        opts_free(&o);
        return EXIT_USAGE;
    }
    p.log_y = !opts_isset(&o, "log-y") ? 0 : opts_bool(&o, "log-y") ? 1 : -1;
    char outbuf[600];
    if (curves_load(&cv, pos, (size_t)npos) < 0) {
        rc = EXIT_USAGE;
    } else {
        p.out = opts_str(&o, "out");
        if (!p.out) {
            snprintf(outbuf, sizeof outbuf, "%s/plots", cv.dirs[0].path);
            p.out = outbuf;
        }
        rc = plot_make(&p, formats) < 0 ? EXIT_RUNTIME : 0;
    }
    if (log.out.s)
        fputs(log.out.s, stdout);
    fflush(stdout);
    if (log.warn.s)
        warnx_("%s", log.warn.s);
    if (rc != 0)
        warnx_("%s", log.err[0] ? log.err : "plot failed");
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
    plot_files_free(&written);
    curves_free(&cv);
    opts_free(&o);
    return rc;
}
