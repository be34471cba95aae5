/*
 * micro/micro.c - `dbscale micro`: which points to run, and how to show them.
 *
 * The idea: a run is a plain list of points (test x mode x task count), each
 * measured by the harness and printed as soon as it is done, in the layout of
 * the will-it-scale table the suite comes from; the same rows go to CSV/JSON
 * and to DIR/micro.csv for `dbscale compare`. The sweep uses micro_run_set()
 * to do the same at each CPU count.
 *
 * It must never measure anything itself (that is harness.c), nor change the
 * micro.csv columns that compare reads (see micro.h).
 */
#include "micro.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "options.h"
#include "signals.h"
#include "verbs.h"

#define MAX_LEVELS 64
#define MAX_TASKS  4096

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
    {"output", OPT_CHOICE, "table", "stdout format", "table|csv|json"},
    {"out", OPT_STR, NULL,
     "also add the rows to DIR/micro.csv (made with its header if new; "
     "rewritten atomically)"},
    {"variant", OPT_STR, "", "label written in the variant column"},
    {"list", OPT_BOOL, "off", "list the tests with their unit of work and exit"},
};

/* "1,2,all" or "1-all:x2", with all = ncpus, into out[]. Count, or -1 with err. */
static int parse_tasks(const char *s, int ncpus, int *out, int max, char *err, size_t errlen)
{
    struct sbuf b = {0};
    sbuf_add(&b, "", 0);
    for (const char *p = s; *p; p++)
        if (strncmp(p, "all", 3) == 0) {
            sbuf_printf(&b, "%d", ncpus);
            p += 2;
        } else {
            sbuf_add(&b, p, 1);
        }
    long long v[MAX_LEVELS];
    int n = parse_int_list(b.s, v, MAX_LEVELS);
    sbuf_free(&b);
    for (int i = 0; i < n; i++) {
        if (v[i] < 1 || v[i] > MAX_TASKS)
            n = -1;
        else if (i < max)
            out[i] = (int)v[i];
    }
    if (n <= 0 || n > max) {
        snprintf(err, errlen, "--tasks: '%s' is not a list of task counts like 1,2,4,all", s);
        return -1;
    }
    return n;
}

/* Tests named in a comma list or words; NULL/empty = all visible ones. */
static int pick_tests(char **words, int nwords, const struct micro_test **out, int max, char *err,
                      size_t errlen)
{
    int n = 0;
    if (nwords == 0 || (nwords == 1 && strcmp(words[0], "all") == 0)) {
        for (int i = 0; micro_tests[i] && n < max; i++)
            if (!micro_tests[i]->hidden)
                out[n++] = micro_tests[i];
        return n;
    }
    for (int w = 0; w < nwords; w++) {
        char *dup = xstrdup(words[w]), *save = NULL;
        for (char *tok = strtok_r(dup, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
            tok += strspn(tok, " \t"); /* "getppid1, open1" from a config file */
            tok[strcspn(tok, " \t")] = '\0';
            const struct micro_test *t = micro_find(tok);
            if (!t || n >= max) {
                struct sbuf b = {0};
                for (int i = 0; micro_tests[i]; i++)
                    if (!micro_tests[i]->hidden)
                        sbuf_printf(&b, " %s", micro_tests[i]->name);
                snprintf(err, errlen, "unknown test '%s'; valid tests:%s", tok, b.s);
                sbuf_free(&b);
                free(dup);
                return -1;
            }
            out[n++] = t;
        }
        free(dup);
    }
    return n;
}

static void csv_num(struct sbuf *b, const struct micro_point *p, double v)
{
    if (p->error[0])
        sbuf_add(b, ",", 1);
    else
        sbuf_printf(b, ",%.1f", v);
}

/* Text fields must not break the CSV: commas, quotes and newlines become spaces. */
static void csv_text(struct sbuf *b, const char *s)
{
    sbuf_add(b, ",", 1);
    for (; *s; s++)
        sbuf_add(b, strchr(",\"\n\r", *s) ? " " : s, 1);
}

void micro_csv_row(struct sbuf *b, const struct micro_point *p, const char *variant)
{
    sbuf_printf(b, "%s,%c,%d,%d", p->test, p->mode, p->tasks, p->cpus);
    csv_num(b, p, p->ops);
    csv_num(b, p, p->min);
    csv_num(b, p, p->max);
    if (p->error[0])
        sbuf_add(b, ",", 1);
    else
        sbuf_printf(b, ",%.2f", p->cv);
    sbuf_add(b, ",", 1);
    for (int i = 0; i < p->nsamples; i++)
        sbuf_printf(b, "%s%.1f", i ? ";" : "", p->samples[i]);
    csv_text(b, p->fs_type);
    csv_text(b, p->error);
    csv_text(b, variant ? variant : "");
    sbuf_add(b, "\n", 1);
}

int micro_csv_append(const char *dir, const struct sbuf *rows, char *err, size_t errlen)
{
    char path[4096];
    int e = mkdir_p(dir, 0755);
    if (e < 0) {
        snprintf(err, errlen, "cannot create %s: %s", dir, strerror(-e));
        return -1;
    }
    snprintf(path, sizeof path, "%s/micro.csv", dir);
    struct sbuf b = {0};
    FILE *f = fopen(path, "r");
    if (f) {
        char buf[65536];
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, f)) > 0)
            sbuf_add(&b, buf, n);
        fclose(f);
        if (b.len < sizeof MICRO_CSV_HEADER ||
            strncmp(b.s, MICRO_CSV_HEADER "\n", sizeof MICRO_CSV_HEADER) != 0) {
            snprintf(err, errlen, "%s: not a micro.csv of this version (header differs)", path);
            sbuf_free(&b);
            return -1;
        }
    } else if (errno != ENOENT) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
        return -1;
    } else {
        sbuf_printf(&b, "%s\n", MICRO_CSV_HEADER);
    }
    if (rows->len)
        sbuf_add(&b, rows->s, rows->len);
    e = write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    if (e < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(-e));
        return -1;
    }
    return 0;
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

struct plan {
    const struct micro_test *tests[128];
    int ntests;
    int tasks[MAX_LEVELS], ntasks;
    char modes[3];
    int ncpus;
};

static int plan_make(struct plan *pl, char **words, int nwords, const char *cpus, const char *tasks,
                     const char *mode, char *err, size_t errlen)
{
    memset(pl, 0, sizeof *pl);
    int *ids = NULL;
    pl->ncpus = micro_cpus(cpus, &ids, err, errlen);
    free(ids);
    if (pl->ncpus == 0)
        snprintf(err, errlen, "--cpus: no CPUs allowed");
    if (pl->ncpus <= 0)
        return -1;
    if (!strcmp(mode, "process") || !strcmp(mode, "both"))
        strcat(pl->modes, "p");
    if (!strcmp(mode, "thread") || !strcmp(mode, "both"))
        strcat(pl->modes, "t");
    if (!pl->modes[0]) {
        snprintf(err, errlen, "--mode: '%s' is not one of process|thread|both", mode);
        return -1;
    }
    pl->ntasks = parse_tasks(tasks, pl->ncpus, pl->tasks, MAX_LEVELS, err, errlen);
    if (pl->ntasks < 0)
        return -1;
    pl->ntests = pick_tests(words, nwords, pl->tests, 128, err, errlen);
    return pl->ntests < 0 ? -1 : 0;
}

/* Runs the plan, printing in fmt (NULL = silent) and collecting CSV rows.
 * 0, or 128+signal when interrupted. */
static int plan_run(const struct plan *pl, const struct micro_config *c, const char *fmt,
                    const char *variant, struct sbuf *rows)
{
    int first = 1;
    for (int i = 0; i < pl->ntests; i++)
        for (const char *m = pl->modes; *m; m++)
            for (int k = 0; k < pl->ntasks; k++) {
                struct micro_point p;
                int rc = micro_run_point(pl->tests[i], *m, pl->tasks[k], c, &p);
                if (rc < 0) {
                    micro_point_free(&p);
                    fflush(stdout);
                    warnx_("interrupted by signal %d; tasks killed, scratch removed",
                           signals_caught());
                    return signals_exit_code();
                }
                if (fmt)
                    print_point(fmt, &p, variant, first);
                first = 0;
                micro_csv_row(rows, &p, variant);
                micro_point_free(&p);
            }
    return 0;
}

int micro_run_set(const char *tests_csv, const char *cpus_list, const char *tasks_list,
                  const char *mode, const char *out_dir, const char *variant_label, char *err,
                  size_t errlen)
{
    struct micro_config c;
    micro_config_default(&c);
    c.cpus = cpus_list;
    struct plan pl;
    char *words[1] = {(char *)tests_csv};
    if (plan_make(&pl, words, tests_csv && *tests_csv ? 1 : 0, cpus_list,
                  tasks_list ? tasks_list : "1,all", mode ? mode : "both", err, errlen) < 0)
        return EXIT_USAGE;
    struct sbuf rows = {0};
    int rc = plan_run(&pl, &c, NULL, variant_label, &rows);
    /* Points finished before a signal are measurements: keep them. */
    if (out_dir && micro_csv_append(out_dir, &rows, err, errlen) < 0 && rc == 0)
        rc = EXIT_RUNTIME;
    sbuf_free(&rows);
    if (rc >= 128) /* the signal room keeps the signal for the caller's exit code */
        snprintf(err, errlen, "interrupted by signal %d", rc - 128);
    return rc;
}

static void list_tests(void)
{
    for (int i = 0; micro_tests[i]; i++)
        if (!micro_tests[i]->hidden)
            printf("%-18s %s\n", micro_tests[i]->name, micro_tests[i]->desc);
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
    c.warmup = opts_num(&o, "warmup");
    c.interval = opts_num(&o, "interval");
    c.samples = (int)opts_int(&o, "samples");
    c.repeats = (int)opts_int(&o, "repeats");
    struct plan pl;
    if (plan_make(&pl, words, nwords, c.cpus, opts_str(&o, "tasks"), opts_str(&o, "mode"), err,
                  sizeof err) < 0) {
        opts_free(&o);
        die(EXIT_USAGE, "micro: %s", err);
    }
    const char *fmt = opts_str(&o, "output"), *variant = opts_str(&o, "variant");
    const char *out = opts_str(&o, "out");
    signals_install();
    print_header(fmt, &c, pl.ncpus);
    struct sbuf rows = {0};
    int rc = plan_run(&pl, &c, fmt, variant, &rows);
    if (strcmp(fmt, "json") == 0)
        printf("\n]\n");
    if (rc == 0 && out && micro_csv_append(out, &rows, err, sizeof err) < 0) {
        warnx_("micro: %s", err);
        rc = EXIT_RUNTIME;
    }
    sbuf_free(&rows);
    opts_free(&o);
    return rc;
}
