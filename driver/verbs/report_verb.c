/*
 * report_verb.c - `dbscale report RESULTS_DIR... [--out FILE.html]`: the
 * command line over page.h. Reads the results directories the way plot does
 * (page_load), writes one self-contained HTML page and prints its path.
 * Bad input (no directory, an unreadable or malformed results.csv) exits 2
 * before anything is written; a page that cannot be written exits 1.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/options.h"
#include "page/page.h"
#include "verbs/study_page.h"
#include "page/page_study.h"
#include "results/studydir.h"
#include "results/studyrec.h"
#include "core/util.h"
#include "verbs/verbs.h"

#define REPORT_MAXDIRS 32

static const struct optdef report_opts[] = {
    {"out", OPT_STR, NULL, "the HTML file to write (default: FIRST_DIR/report.html)"},
};

/* the table, for the man page and the completion (verb_table.c) */
const struct optdef *report_verb_optdefs(size_t *n)
{
    *n = sizeof report_opts / sizeof report_opts[0];
    return report_opts;
}

static void report_usage(FILE *f, const struct opts *o)
{
    fputs("usage: dbscale report RESULTS_DIR... [--out FILE.html]\n\n"
          "Writes one self-contained HTML page (inline SVG and CSS, no scripts, nothing\n"
          "fetched) with the answer in words, the graphs, the tables, the warnings, the\n"
          "machine and the command that reproduces the study. With several directories,\n"
          "each later one is compared with the first; directories with a kernel.json are\n"
          "also compared as kernel variants, and a `dbscale study` or `dbscale kernels`\n"
          "study directory stands for its variants.\n\n",
          f);
    opts_help(o, f);
}

int report_main(int argc, char **argv)
{
    struct opts o;
    opts_init(&o, report_opts, sizeof report_opts / sizeof report_opts[0]);
    char *pos[REPORT_MAXDIRS], err[1024];
    int npos, rc = opts_parse_argv(&o, argc, argv, 1, pos, REPORT_MAXDIRS, &npos, err, sizeof err);
    if (rc == 1 || (rc == 0 && npos == 0)) {
        report_usage(rc == 1 ? stdout : stderr, &o);
        opts_free(&o);
        return rc == 1 ? 0 : EXIT_USAGE;
    }
    if (rc < 0) {
        warnx_("%s", err);
        opts_free(&o);
        return EXIT_USAGE;
    }
    /* a study (kernels or any) stands for its variants' directories */
    char *dirs[REPORT_MAXDIRS], **sub = NULL, *study = NULL;
    size_t nd = 0, nsub = 0, beyond = 0;
    for (int i = 0; i < npos; i++) {
        if (studydir_variants(pos[i], &sub, &nsub, &beyond, err, sizeof err) < 0) {
            warnx_("%s", err);
            opts_free(&o);
            return EXIT_USAGE;
        }
        if (!nsub) { /* a `dbscale study` directory: its study.json names them */
            studydir_free(sub, nsub);
            if (studyrec_variants(pos[i], &sub, &nsub, err, sizeof err) < 0) {
                warnx_("%s", err);
                opts_free(&o);
                return EXIT_USAGE;
            }
        }
        if (nsub && !study)
            study = pos[i];
        if (beyond) /* the page says so too */
            warnx_("%s: the page compares the first %d variants; %zu more were left out", pos[i],
                   STUDYDIR_MAX, beyond);
        for (size_t j = 0; j < nsub && nd < REPORT_MAXDIRS; j++)
            dirs[nd++] = xstrdup(sub[j]);
        if (!nsub && nd < REPORT_MAXDIRS)
            dirs[nd++] = xstrdup(pos[i]);
        studydir_free(sub, nsub);
    }
    struct curves_log log = {0};
    struct curves cv = {0};
    cv.log = &log;
    rc = 0;
    if (page_load(&cv, dirs, nd) < 0) {
        warnx_("%s", log.err[0] ? log.err : "cannot read the results");
        rc = EXIT_USAGE;
    }
    if (log.warn.s) /* a kernel baseline left out, say: the page is still made */
        warnx_("%s", log.warn.s);
    char def[600];
    const char *out = opts_str(&o, "out");
    if (rc == 0 && !out) {
        snprintf(def, sizeof def, "%s/report.html", study ? study : cv.dirs[0].path);
        out = def;
    }
    size_t nsw;
    struct optdef *sw = sweep_verb_optdefs(&nsw); /* the reproduce line's names */
    page_known_options(sw, nsw);
    if (rc == 0 && study_page_write(&cv, out, err, sizeof err) < 0) {
        warnx_("cannot write the report: %s", err);
        rc = EXIT_RUNTIME;
    }
    page_known_options(NULL, 0);
    free(sw);
    if (rc == 0)
        printf("report: %s\n", out);
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
    curves_free(&cv);
    for (size_t i = 0; i < nd; i++)
        free(dirs[i]);
    opts_free(&o);
    return rc;
}
