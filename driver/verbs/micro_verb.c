/*
 * verbs/micro_verb.c - `dbscale micro`: the command line, the table / CSV /
 * JSON on stdout, and the exit code.
 *
 * The idea: each point is printed as soon as the library (micro/micro.c)
 * hands it over, in the layout of the will-it-scale table the suite comes
 * from. Measuring, planning and the micro.csv rows stay in micro/; this file
 * only turns them into text and an exit code (0, 1 runtime, 2 bad input,
 * 128 + the signal that stopped it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "micro/micro.h"
#include "core/options.h"
#include "results/kerneljson.h"
#include "core/signals.h"
#include "core/util.h"
#include "verbs/verbs.h"

static const struct optdef micro_opts[] = {
    {"config", OPT_STR, NULL, "read options from this INI file first"},
    {"tasks", OPT_STR, "1,all",
     "task counts: list/ranges as in the sweep (1,2,4 or 1-all:x2), "
     "all = the number of CPUs"},
    {"mode", OPT_CHOICE, "both", "run tasks as processes, threads or both", "process|thread|both"},
    {"cpus", OPT_STR, NULL,
     "CPU ids like 0-3,6; task i is bound to the i-th, wrapping round (default: all "
     "allowed)"},
    {"warmup", OPT_NUM, "0.2", "seconds run before sampling", NULL, 0, 3600},
    {"samples", OPT_INT, "5", "samples per point", NULL, 1, 100000},
    {"interval", OPT_NUM, "0.2", "seconds per sample", NULL, 0.01, 3600},
    {"repeats", OPT_INT, "1", "reruns of each point, samples pooled", NULL, 1, 1000},
    {"dir", OPT_STR, NULL,
     "where the file tests make their scratch dir (default: $TMPDIR or "
     "/tmp)"},
    {"output", OPT_CHOICE, "table",
     "stdout format (wis: will-it-scale's runtest.py CSV, one test, both modes)",
     "table|csv|json|wis"},
    {"out", OPT_STR, NULL,
     "also add the rows to DIR/micro.csv (made with its header if new; "
     "rewritten atomically)"},
    {"variant", OPT_STR, "", "label written in the variant column"},
    {"list", OPT_BOOL, "off", "list the tests with their unit of work and exit"},
};

/* the table, for the man page and the completion (verb_table.c) */
const struct optdef *micro_verb_optdefs(size_t *n)
{
    *n = sizeof micro_opts / sizeof micro_opts[0];
    return micro_opts;
}

static void print_header(const char *fmt, const struct micro_config *c, int ncpus)
{
    struct utsname u;
    uname(&u);
    if (strcmp(fmt, "table") == 0) {
        const char *base = micro_scratch_base(c->dir);
        printf("# dbscale micro: %s %s %s, %d CPUs [%s], warmup %gs, %d samples x %gs, "
               "%d repeat(s), files in %s (%s)\n",
               u.sysname, u.release, u.machine, ncpus, c->cpus && *c->cpus ? c->cpus : "all",
               c->warmup, c->samples, c->interval, c->repeats, base, micro_fs_type(base));
        printf("%-18s %4s %5s %14s %14s %14s %6s\n", "test", "mode", "tasks", "ops/s", "min", "max",
               "cv%");
    } else if (strcmp(fmt, "csv") == 0) {
        printf("%s\n", MICRO_CSV_HEADER);
    } else if (strcmp(fmt, "wis") == 0) {
        /* runtest.py's header and its origin row, so plot.py's lines start at 0 */
        printf("tasks,processes,processes_idle,threads,threads_idle,linear\n0,0,100,0,100,0\n");
    } else {
        printf("[");
    }
}

static void json_text(const char *s)
{
    putchar('"');
    for (; *s; s++)
        if (*s == '"' || *s == '\\')
            printf("\\%c", *s);
        else if ((unsigned char)*s >= 0x20)
            putchar(*s);
    putchar('"');
}

static void print_point(const char *fmt, const struct micro_point *p, const char *variant,
                        int first)
{
    if (strcmp(fmt, "table") == 0) {
        if (p->error[0])
            printf("%-18s %4c %5.2d %14s %14s %14s %6s  %s\n", p->test, p->mode, p->tasks, "N/A",
                   "", "", "", p->error);
        else
            printf("%-18s %4c %5.2d %14.0f %14.0f %14.0f %6.1f\n", p->test, p->mode, p->tasks,
                   p->ops, p->min, p->max, p->cv);
    } else if (strcmp(fmt, "csv") == 0) {
        struct sbuf b = {0};
        micro_csv_row(&b, p, variant);
        fputs(b.s, stdout);
        sbuf_free(&b);
    } else {
        printf("%s\n {\"test\": \"%s\", \"mode\": \"%c\", \"tasks\": %d, \"cpus\": %d, ",
               first ? "" : ",", p->test, p->mode, p->tasks, p->cpus);
        if (p->error[0])
            printf("\"ops_per_s\": null, \"min\": null, \"max\": null, \"cv\": null, ");
        else
            printf("\"ops_per_s\": %.1f, \"min\": %.1f, \"max\": %.1f, \"cv\": %.2f, ", p->ops,
                   p->min, p->max, p->cv);
        printf("\"samples\": [");
        for (int i = 0; i < p->nsamples; i++)
            printf("%s%.1f", i ? ", " : "", p->samples[i]);
        printf("], \"fs_type\": ");
        json_text(p->fs_type);
        printf(", \"error\": ");
        json_text(p->error);
        printf(", \"variant\": ");
        json_text(variant ? variant : "");
        printf("}");
    }
    fflush(stdout);
}

/* One will-it-scale row: a task count's figure in each mode (-1 = no
 * figure, as runtest.py prints when a run gave no average). */
struct wis_row {
    double ops[2], idle[2];
};

struct show {
    const char *fmt, *variant;
    const struct micro_plan *pl;
    struct wis_row rows[64];
    int seen[2]; /* points of each mode so far: the plan runs tasks in order */
};

static void show_point(const struct micro_point *p, int first, void *arg)
{
    struct show *sh = arg;
    if (strcmp(sh->fmt, "wis") != 0) {
        print_point(sh->fmt, p, sh->variant, first);
        return;
    }
    int m = p->mode == 't', k = sh->seen[m]++;
    if (k < sh->pl->ntasks) {
        sh->rows[k].ops[m] = p->error[0] ? -1 : p->ops;
        sh->rows[k].idle[m] = p->error[0] ? 0 : p->idle;
    }
}

/* runtest.py's rows once both modes are in: linear is the first task count's
 * better mode, per task, times the task count (runtest: its 1-task figure x
 * tasks). Printed at the end because each row needs both modes. */
static void print_wis(const struct show *sh)
{
    const struct micro_plan *pl = sh->pl;
    double first =
        sh->rows[0].ops[0] > sh->rows[0].ops[1] ? sh->rows[0].ops[0] : sh->rows[0].ops[1];
    /* rounded first, as the printed figure: runtest's figures are integers,
     * so linear is exactly tasks x the 1-task row */
    double per_task = first > 0 ? (double)(long long)(first + 0.5) / pl->tasks[0] : 0;
    for (int k = 0; k < pl->ntasks && k < sh->seen[0] && k < sh->seen[1]; k++) {
        const struct wis_row *r = &sh->rows[k];
        printf("%d,%.0f,%.2f,%.0f,%.2f,%.0f\n", pl->tasks[k], r->ops[0], r->idle[0], r->ops[1],
               r->idle[1], per_task * pl->tasks[k]);
    }
    fflush(stdout);
}

static int by_name(const void *a, const void *b)
{
    return strcmp((*(const struct micro_test *const *)a)->name,
                  (*(const struct micro_test *const *)b)->name);
}

/* Sorted by name so a reader finds a test; the registry keeps its own order
 * (families together), which is also the order `micro all` runs them in. */
static void list_tests(void)
{
    size_t n = 0;
    while (micro_tests[n])
        n++;
    const struct micro_test **t = xcalloc(n ? n : 1, sizeof *t);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!micro_tests[i]->hidden)
            t[k++] = micro_tests[i];
    qsort(t, k, sizeof *t, by_name);
    for (size_t i = 0; i < k; i++)
        printf("%-18s %s\n", t[i]->name, t[i]->desc);
    free(t);
}

int micro_main(int argc, char **argv)
{
    struct opts o;
    char err[1024], *words[64];
    int nwords;
    opts_init(&o, micro_opts, sizeof micro_opts / sizeof *micro_opts);
    int r = opts_parse_argv(&o, argc, argv, 1, words, 64, &nwords, err, sizeof err);
    if (r == 1) {
        printf("usage: dbscale micro [TEST...] [options]   (TEST: a name, a comma list, or "
               "all)\n\n");
        opts_help(&o, stdout);
        printf("\nThe figure is the median ops/s of the samples; min, max and cv%% beside it.\n"
               "Try --list for the tests and the unit of work each counts.\n");
        opts_free(&o);
        return 0;
    }
    if (r < 0) {
        opts_free(&o);
        die(EXIT_USAGE, "micro: %s", err);
    }
    if (opts_bool(&o, "list")) {
        list_tests();
        opts_free(&o);
        return 0;
    }
    struct micro_config c;
    micro_config_default(&c);
    c.cpus = opts_str(&o, "cpus");
    c.dir = opts_str(&o, "dir");
    struct stat st; /* as fs: a scratch place that is not there is bad input, not N/A points */
    if (c.dir && (stat(c.dir, &st) < 0 || !S_ISDIR(st.st_mode)))
        die(EXIT_USAGE, "micro: --dir: '%s' is not a directory", c.dir);
    c.warmup = opts_num(&o, "warmup");
    c.interval = opts_num(&o, "interval");
    c.samples = (int)opts_int(&o, "samples");
    c.repeats = (int)opts_int(&o, "repeats");
    struct micro_plan pl;
    if (micro_plan_make(&pl, words, nwords, c.cpus, opts_str(&o, "tasks"), opts_str(&o, "mode"),
                        err, sizeof err) < 0) {
        opts_free(&o);
        die(EXIT_USAGE, "micro: %s", err);
    }
    const char *fmt = opts_str(&o, "output"), *variant = opts_str(&o, "variant");
    const char *out = opts_str(&o, "out");
    if (strcmp(fmt, "wis") == 0 && (pl.ntests != 1 || strcmp(pl.modes, "pt") != 0)) {
        opts_free(&o);
        die(EXIT_USAGE, "micro: --output=wis is will-it-scale's CSV of one test in both modes: "
                        "name one test and leave --mode=both");
    }
    int kr = out ? kernel_json_record_running(out, err, sizeof err) : 0;
    if (kr < 0) {
        opts_free(&o);
        die(kr == -2 ? EXIT_USAGE : EXIT_RUNTIME, "micro: --out: %s", err);
    }
    signals_install();
    print_header(fmt, &c, pl.ncpus);
    struct sbuf rows = {0};
    static struct show sh; /* static: rows[] is a few KB */
    memset(&sh, 0, sizeof sh);
    sh.fmt = fmt, sh.variant = variant, sh.pl = &pl;
    int rc = micro_plan_run(&pl, &c, show_point, &sh, variant, &rows);
    if (strcmp(fmt, "json") == 0)
        printf("\n]\n");
    else if (strcmp(fmt, "wis") == 0)
        print_wis(&sh);
    if (rc >= 128) {
        fflush(stdout);
        warnx_("interrupted by signal %d; tasks killed, scratch removed", rc - 128);
    }
    if (rc == 0 && out && micro_csv_append(out, &rows, err, sizeof err) < 0) {
        warnx_("micro: %s", err);
        rc = EXIT_RUNTIME;
    }
    sbuf_free(&rows);
    opts_free(&o);
    return rc;
}
