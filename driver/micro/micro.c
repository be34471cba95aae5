/*
 * micro/micro.c - which microbenchmark points to run, and their rows.
 *
 * The idea: a run is a plain list of points (test x mode x task count), each
 * measured by the harness and handed to the caller's callback as soon as it
 * is done; the same rows go to DIR/micro.csv for `dbscale compare`. The verb
 * (verbs/micro_verb.c) prints them; the sweep uses micro_run_set() at each
 * CPU count.
 *
 * It must never measure anything itself (that is harness.c), never print or
 * exit (errors come back in err), nor change the micro.csv columns that
 * compare reads (see micro.h).
 */
#include "micro/micro.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/benchcsv.h"
#include "core/options.h"
#include "core/parse.h"
#include "core/signals.h"

#define MAX_LEVELS 64
#define MAX_TASKS  4096

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
    /* up to MAX_TASKS, or one a CPU on machines bigger than that */
    long long most = ncpus > MAX_TASKS ? ncpus : MAX_TASKS;
    for (int i = 0; i < n; i++) {
        if (v[i] < 1 || v[i] > most)
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
        if (parse_list_has_empty(words[w])) {
            snprintf(err, errlen, "'%s' has an empty test name", words[w]);
            return -1;
        }
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

/* micro.csv's one owner is results/benchcsv.c; this only fills its row. */
void micro_csv_row(struct sbuf *b, const struct micro_point *p, const char *variant)
{
    struct microcsv_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.test, sizeof r.test, "%s", p->test);
    r.mode[0] = p->mode;
    r.tasks = p->tasks;
    r.cpus = p->cpus;
    r.ops = p->ops, r.min = p->min, r.max = p->max, r.cv = p->cv;
    size_t o = 0;
    for (int i = 0; i < p->nsamples && o + 32 < sizeof r.samples; i++)
        o += (size_t)snprintf(r.samples + o, sizeof r.samples - o, "%s%.1f", i ? ";" : "",
                              p->samples[i]);
    snprintf(r.fs_type, sizeof r.fs_type, "%s", p->fs_type);
    snprintf(r.error, sizeof r.error, "%s", p->error);
    snprintf(r.variant, sizeof r.variant, "%s", variant ? variant : "");
    r.idle = p->idle;
    microcsv_format(b, &r);
}

int micro_csv_append(const char *dir, const struct sbuf *rows, char *err, size_t errlen)
{
    return microcsv_append(dir, rows, err, errlen);
}

int micro_plan_make(struct micro_plan *pl, char **words, int nwords, const char *cpus,
                    const char *tasks, const char *mode, char *err, size_t errlen)
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

int micro_plan_run(const struct micro_plan *pl, const struct micro_config *c,
                   micro_point_fn on_point, void *arg, const char *variant, struct sbuf *rows)
{
    int first = 1;
    for (int i = 0; i < pl->ntests; i++)
        for (const char *m = pl->modes; *m; m++)
            for (int k = 0; k < pl->ntasks; k++) {
                struct micro_point p;
                int rc = micro_run_point(pl->tests[i], *m, pl->tasks[k], c, &p);
                if (rc < 0) {
                    micro_point_free(&p);
                    return signals_exit_code();
                }
                if (on_point)
                    on_point(&p, first, arg);
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
    struct micro_plan pl;
    char *words[1] = {(char *)tests_csv};
    if (micro_plan_make(&pl, words, tests_csv && *tests_csv ? 1 : 0, cpus_list,
                        tasks_list ? tasks_list : "1,all", mode ? mode : "both", err, errlen) < 0)
        return EXIT_USAGE;
    struct sbuf rows = {0};
    int rc = micro_plan_run(&pl, &c, NULL, NULL, variant_label, &rows);
    /* Points finished before a signal are measurements: keep them. */
    if (out_dir && micro_csv_append(out_dir, &rows, err, errlen) < 0 && rc == 0)
        rc = EXIT_RUNTIME;
    sbuf_free(&rows);
    if (rc >= 128) /* the signal room keeps the signal for the caller's exit code */
        snprintf(err, errlen, "interrupted by signal %d", rc - 128);
    return rc;
}
