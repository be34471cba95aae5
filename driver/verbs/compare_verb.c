/*
 * compare_verb.c - `dbscale compare A B [C...] [--out DIR]`: options in,
 * compare_load() and compare_build() (analysis/compare.h), the tables to
 * stdout and, with --out, compare.md / compare.csv; the exit code.
 *
 * The one idea: the compare room builds tables as text cells and never
 * prints; here they are rendered and shown. Bad input exits 2 naming the
 * file and line, a write that fails exits 1.
 *
 * Never compute a statistic here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/compare.h"
#include "core/options.h"
#include "core/safefile.h"
#include "core/util.h"
#include "verbs/verb_args.h"
#include "verbs/verbs.h"

static const struct optdef compare_opts[] = {
    {"out", OPT_STR, NULL, "also write compare.md and compare.csv into this directory"},
};

/* the table, for the man page and the completion (verb_table.c) */
const struct optdef *compare_verb_optdefs(size_t *n)
{
    *n = sizeof compare_opts / sizeof compare_opts[0];
    return compare_opts;
}

static int write_out(const char *dir, const char *name, const struct sbuf *b)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = write_file_atomic(path, b->s ? b->s : "", b->len);
    if (rc < 0) {
        warnx_("cannot write %s: %s", path, strerror(-rc));
        return -1;
    }
    printf("wrote %s\n", path);
    return 0;
}

int compare_main(int argc, char **argv)
{
    struct opts o;
    opts_init(&o, compare_opts, sizeof compare_opts / sizeof compare_opts[0]);
    char *pos[1024], err[512];
    static const char usage[] =
        "usage: dbscale compare A B [C...] [--out DIR]\n"
        "  each of A, B... a results directory, a results.csv or micro.csv, or a wide\n"
        "  FILE.tsv (test mode tasks NAME...; one set per raw column)\n"
        "Points match by threads (sweeps) or test, mode and tasks (micro); engine,\n"
        "workload, variant and cpus join the key only when they vary inside a set.\n"
        "Each pair gets floor((a/b - 1) * 100) % on the medians, marked * when\n"
        "Welch's t-test finds the difference significant at 95%, ~ when not.\n";
    int npos, rc = 0;
    if (!verb_args_parse(&o, argc, argv, pos, 1024, &npos, usage, &rc))
        return rc;
    struct compare_sets ss = {0};
    for (int i = 0; i < npos; i++)
        if (compare_load(&ss, pos[i], err, sizeof err) < 0) {
            warnx_("%s", err);
            compare_sets_free(&ss);
            opts_free(&o);
            return EXIT_USAGE;
        }
    compare_name_sets(&ss);
    const char *out = opts_str(&o, "out");
    int me = out ? dir_make_nofollow(out, 0755) : 0;
    if (me < 0) {
        warnx_("cannot create %s: %s", out, file_strerror(me));
        rc = EXIT_RUNTIME;
    }
    struct sbuf md = {0};
    int tables = 0;
    size_t per[COMPARE_NKINDS] = {0}, most = 0;
    for (size_t i = 0; i < ss.n; i++)
        per[ss.s[i].kind]++;
    for (int k = 0; k < COMPARE_NKINDS; k++)
        most = per[k] > most ? per[k] : most;
    for (int k = 0; k < COMPARE_NKINDS && rc == 0; k++) {
        struct compare_table t;
        if (per[k] < most && per[k] < 2)
            continue; /* e.g. one micro.csv among several sweeps: nothing to compare */
        compare_build(&ss, (enum compare_kind)k, &t);
        if (t.ncols == 0)
            continue;
        struct sbuf txt = {0}, csv = {0};
        compare_render_text(&t, &txt);
        fputs(txt.s, stdout);
        sbuf_printf(&md, "## %s\n\n",
                    k == COMPARE_RESULTS ? "Database throughput (tps)" : "Kernel baseline (ops/s)");
        compare_render_md(&t, &md);
        sbuf_add(&md, "\n", 1);
        compare_render_csv(&t, &csv);
        if (out && write_out(out, tables ? "compare-micro.csv" : "compare.csv", &csv) < 0)
            rc = EXIT_RUNTIME;
        tables++;
        sbuf_free(&txt);
        sbuf_free(&csv);
        compare_table_free(&t);
    }
    if (rc == 0 && tables == 0) {
        warnx_("nothing to compare");
        rc = EXIT_USAGE;
    }
    if (rc == 0 && out && write_out(out, "compare.md", &md) < 0)
        rc = EXIT_RUNTIME;
    sbuf_free(&md);
    compare_sets_free(&ss);
    opts_free(&o);
    return rc;
}
