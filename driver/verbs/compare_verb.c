/*
 * compare_verb.c - `dbscale compare A B [C...] [--out DIR]`: options in,
 * compare_load() and compare_build() (analysis/compare.h), the tables to
 * stdout and, with --out, compare.md / compare.csv; when the inputs are
 * results directories, the verdict (analysis/verdict.h) as text, and with
 * --out verdict.txt and verdict.json; the exit code, which is the verdict's
 * gate for CI.
 *
 * The one idea: the compare and verdict rooms compute and never print; here
 * they are rendered and shown. Bad input exits 2 naming the file and line,
 * a write that fails exits 1; the gate's codes (3 regression, 4
 * inconclusive, 5 nothing comparable) are distinct from both.
 *
 * Never compute a statistic here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/compare.h"
#include "analysis/curves.h"
#include "analysis/verdict.h"
#include "report/verdict_json.h"
#include "report/verdict_text.h"
#include "core/options.h"
#include "core/safefile.h"
#include "core/util.h"
#include "verbs/verb_args.h"
#include "verbs/verbs.h"

static const struct optdef compare_opts[] = {
    {"out", OPT_STR, NULL,
     "also write compare.md, compare.csv, verdict.txt and verdict.json into this directory"},
    {"threshold", OPT_NUM, "5",
     "a change under this many % is the same (points whose interval lies within it)", NULL, 0.1,
     100},
    {"fdr", OPT_NUM, "5",
     "false-discovery rate in %, held over every point and figure compared (Benjamini-Hochberg)",
     NULL, 0.01, 50},
    {"inconclusive", OPT_CHOICE, "fail",
     "exit status when nothing is worse but some point is undecided or on one side only: "
     "fail (exit 4) or pass (exit 0)",
     "fail|pass"},
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

/* Whether every argument is a results directory or a results.csv with
 * database results: the verdict is over sweeps, not over micro.csv or TSVs. */
static int all_results(char **pos, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char path[1100];
        struct stat st;
        if (stat(pos[i], &st) < 0)
            return 0;
        if (S_ISDIR(st.st_mode))
            snprintf(path, sizeof path, "%s/results.csv", pos[i]);
        else
            snprintf(path, sizeof path, "%s", pos[i]);
        size_t l = strlen(path);
        if (l < 11 || strcmp(path + l - 11, "results.csv") != 0 || access(path, F_OK) != 0)
            return 0;
    }
    return n >= 2;
}

/* The verdict of the results directories: printed, written with --out, and
 * the exit status its gate gives. */
static int verdict_run(const struct opts *o, char **pos, size_t n, const char *out)
{
    if (!all_results(pos, n))
        return 0; /* micro.csv or TSV sets: the tables are the answer */
    struct verdict_opt vo;
    verdict_opt_default(&vo);
    vo.delta = opts_num(o, "threshold") / 100;
    vo.fdr = opts_num(o, "fdr") / 100;
    const char *inc = opts_str(o, "inconclusive");
    struct curves_log log = {0};
    struct curves cv = {.log = &log};
    int rc = 0;
    if (curves_load(&cv, pos, n) < 0) {
        warnx_("%s", log.err);
        rc = EXIT_USAGE;
    } else {
        curves_build(&cv);
        struct verdict v;
        verdict_build(&cv, &vo, &v);
        struct sbuf txt = {0}, js = {0};
        verdict_text(&v, &cv, &txt);
        printf("\n%s", txt.s ? txt.s : "");
        if (out) {
            verdict_json(&v, &cv, &js);
            if (write_out(out, "verdict.txt", &txt) < 0 || write_out(out, "verdict.json", &js) < 0)
                rc = EXIT_RUNTIME;
        }
        if (rc == 0)
            rc = v.gate == VG_REGRESSION                                       ? EXIT_REGRESSION
                 : v.gate == VG_INCOMPARABLE                                   ? EXIT_INCOMPARABLE
                 : v.gate == VG_INCONCLUSIVE && !(inc && !strcmp(inc, "pass")) ? EXIT_INCONCLUSIVE
                                                                               : 0;
        sbuf_free(&txt);
        sbuf_free(&js);
        verdict_free(&v);
    }
    if (log.warn.s)
        warnx_("%s", log.warn.s);
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
    curves_free(&cv);
    return rc;
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
        "the difference holds at the --fdr rate over the whole table, ~ when not.\n"
        "Results directories also get the verdict: each point better, worse, the\n"
        "same within --threshold, or undecided; exit 0 pass, 3 regression, 4\n"
        "inconclusive (--inconclusive=pass: 0), 5 nothing comparable.\n";
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
    if (rc == 0)
        rc = verdict_run(&o, pos, (size_t)npos, out);
    opts_free(&o);
    return rc;
}
