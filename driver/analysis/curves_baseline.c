/*
 * curves_baseline.c - the kernel baseline beside the database curves (on the
 * graphs of `dbscale plot` and on the page): every (test, mode) of micro.csv
 * and every fs.csv operation (file create, remove), as one series per CPU
 * count.
 *
 * The one idea: a kernel figure is only comparable with a database curve
 * measured on the same number of CPUs, so a series keeps the CPU count it
 * was measured at and the graph puts each in the panel of that count
 * (plot/plot_gp_baseline.c). Nothing is dropped: there is no cap on series, and a series
 * with its CPU count unknown (0) is still drawn, in a panel of its own.
 *
 * Never guess at numbers: a row with an error or a value that does not
 * parse is left out; an unreadable file is left out with a warning.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/compare_load.h"
#include "core/csv.h"
#include "results/input.h"
#include "core/options.h"
#include "analysis/curves.h"
#include "stats/stats.h"

static struct curve_kernel *series(struct curves *cv, const char *label, int cpus, const char *test,
                                   const char *what)
{
    for (size_t j = 0; j < cv->nmc; j++)
        if (cv->mc[j].cpus == cpus && !strcmp(cv->mc[j].label, label))
            return &cv->mc[j];
    cv->mc = xrealloc(cv->mc, (cv->nmc + 1) * sizeof *cv->mc);
    struct curve_kernel *m = &cv->mc[cv->nmc++];
    memset(m, 0, sizeof *m);
    snprintf(m->label, sizeof m->label, "%s", label);
    snprintf(m->test, sizeof m->test, "%s", test);
    snprintf(m->what, sizeof m->what, "%s", what);
    m->cpus = cpus;
    return m;
}

/* A point; the same task count again (another variant label): first wins. */
static void add_point(struct curve_kernel *m, double tasks, double v)
{
    for (size_t t = 0; t < m->k; t++)
        if (m->n[t] == tasks)
            return;
    if (m->k < CURVE_MAXPTS) {
        m->n[m->k] = tasks;
        m->x[m->k++] = v;
    }
}

static void cpus_suffix(char *b, size_t len, int cpus)
{
    if (cpus > 0)
        snprintf(b, len, ", %d CPU%s", cpus, cpus == 1 ? "" : "s");
    else
        b[0] = '\0';
}

static void load_micro_csv(struct curves *cv, const char *dir)
{
    char path[600], err[600];
    snprintf(path, sizeof path, "%s/micro.csv", dir);
    if (access(path, F_OK) != 0)
        return;
    struct compare_sets ss = {0};
    if (compare_load(&ss, path, err, sizeof err) < 0) {
        sbuf_printf(&cv->log->warn, "kernel baseline left out: %s\n", err);
        compare_sets_free(&ss);
        return;
    }
    for (size_t i = 0; ss.n > 0 && i < ss.s[0].n; i++) {
        const struct compare_point *pt = &ss.s[0].pts[i];
        long long cpus = 0, tasks;
        if (pt->n == 0 || parse_int(pt->f[2], &tasks) < 0 || tasks < 1 ||
            (pt->f[3][0] && (parse_int(pt->f[3], &cpus) < 0 || cpus < 0 || cpus > 1 << 20)))
            continue;
        char label[160], suf[32];
        cpus_suffix(suf, sizeof suf, (int)cpus);
        const char *mode = !strcmp(pt->f[1], "t") ? "threads" : "processes";
        snprintf(label, sizeof label, "kernel: %.40s (%s)%s", pt->f[0], mode, suf);
        char test[48], what[64];
        snprintf(test, sizeof test, "%.40s", pt->f[0]);
        snprintf(what, sizeof what, "%s%s", mode, suf);
        add_point(series(cv, label, (int)cpus, test, what), (double)tasks,
                  stats_median(pt->v, pt->n));
    }
    compare_sets_free(&ss);
}

/* fs.csv: the sweep's and `dbscale fs`'s schemas share tasks,
 * create_files_per_s, remove_files_per_s and error; cpus when present. */
static void load_fs_csv(struct curves *cv, const char *dir)
{
    char path[600], err[600];
    snprintf(path, sizeof path, "%s/fs.csv", dir);
    if (access(path, F_OK) != 0)
        return;
    FILE *f = results_input_open(path, err, sizeof err);
    if (!f) {
        sbuf_printf(&cv->log->warn, "fs baseline left out: %s\n", err);
        return;
    }
    enum { TASKS, CPUS, CREATE, REMOVE, ERROR, NCOL };
    static const char *want[NCOL] = {"tasks", "cpus", "create_files_per_s", "remove_files_per_s",
                                     "error"};
    int at[NCOL], nh = 0, lineno = 0;
    char *line = NULL, *fld[65];
    size_t cap = 0;
    /* Per (operation, cpus, tasks) the rates of all passes, medians after. */
    struct acc {
        int op, cpus;
        double tasks, *v;
        size_t n;
    } *acc = NULL;
    size_t nacc = 0;
    while (csv_getline(f, &line, &cap, &lineno) >= 0) {
        int nf = csv_split(line, ',', fld, 64);
        if (nf < 0 || nf > 64)
            break;
        if (nh == 0) {
            nh = nf;
            for (int c = 0; c < NCOL; c++) {
                at[c] = -1;
                for (int i = 0; i < nf; i++)
                    if (!strcmp(fld[i], want[c]))
                        at[c] = i;
            }
            if (at[TASKS] < 0 || at[CREATE] < 0 || at[REMOVE] < 0) {
                sbuf_printf(&cv->log->warn,
                            "fs baseline left out: %s:%d: no tasks, create_files_per_s and "
                            "remove_files_per_s columns\n",
                            path, lineno);
                break;
            }
            continue;
        }
        if (nf != nh || (at[ERROR] >= 0 && fld[at[ERROR]][0]))
            continue;
        long long tasks, cpus = 0;
        if (parse_int(fld[at[TASKS]], &tasks) < 0 || tasks < 1 ||
            (at[CPUS] >= 0 && (parse_int(fld[at[CPUS]], &cpus) < 0 || cpus < 0 || cpus > 1 << 20)))
            continue;
        for (int op = 0; op < 2; op++) {
            double v;
            if (parse_num(fld[at[op ? REMOVE : CREATE]], &v) < 0 || !(v > 0) || v > 1e15)
                continue;
            struct acc *a = NULL;
            for (size_t i = 0; i < nacc && !a; i++)
                if (acc[i].op == op && acc[i].cpus == cpus && acc[i].tasks == tasks)
                    a = &acc[i];
            if (!a) {
                acc = xrealloc(acc, (nacc + 1) * sizeof *acc);
                a = &acc[nacc++];
                *a = (struct acc){op, (int)cpus, (double)tasks, NULL, 0};
            }
            a->v = xrealloc(a->v, (a->n + 1) * sizeof *a->v);
            a->v[a->n++] = v;
        }
    }
    free(line);
    fclose(f);
    for (size_t i = 0; i < nacc; i++) {
        char label[160], suf[32];
        cpus_suffix(suf, sizeof suf, acc[i].cpus);
        snprintf(label, sizeof label, "kernel: fs %s (files/s)%s", acc[i].op ? "remove" : "create",
                 suf);
        char test[48], what[64];
        snprintf(test, sizeof test, "fs %s (files/s)", acc[i].op ? "remove" : "create");
        snprintf(what, sizeof what, "%s", suf[0] ? suf + 2 : "CPUs unknown");
        add_point(series(cv, label, acc[i].cpus, test, what), acc[i].tasks,
                  stats_median(acc[i].v, acc[i].n));
        free(acc[i].v);
    }
    free(acc);
}

void curves_baseline_load(struct curves *cv)
{
    for (size_t d = 0; d < cv->ndirs; d++) {
        load_micro_csv(cv, cv->dirs[d].path);
        load_fs_csv(cv, cv->dirs[d].path);
    }
    for (size_t j = 0; j < cv->nmc; j++) { /* sort by tasks (insertion sort, k is small) */
        struct curve_kernel *m = &cv->mc[j];
        for (size_t a = 1; a < m->k; a++)
            for (size_t b = a; b > 0 && m->n[b - 1] > m->n[b]; b--) {
                double t = m->n[b], u = m->x[b];
                m->n[b] = m->n[b - 1], m->x[b] = m->x[b - 1];
                m->n[b - 1] = t, m->x[b - 1] = u;
            }
    }
}
