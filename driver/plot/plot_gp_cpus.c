/*
 * plot_gp_cpus.c - the throughput-vs-server-CPUs graph of `dbscale plot`:
 * one series per (directory, engine, workload, client threads), x the CPU
 * counts of its curves, "does it use all the cores?".
 *
 * The one idea: colour is the thread count, dash is the results group, and
 * the dotted style is the ideal line's alone: groups take dashes 1, 2, 4, 5
 * (named in the legend), never 3, so no data line looks like the ideal.
 *
 * Never compute a statistic here (the medians come from struct curve),
 * and never let a name reach the script other than through plot_gp_str().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_gp_text.h"
#include "plot/plot_gp_vars.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* One line of the graph: a (dir, engine, workload, threads) series, x the
 * cpus of its curves. */
struct cpu_series {
    const struct curve *c; /* first curve of the group */
    double threads, cx[CURVE_MAXPTS];
    const struct stats_summary *cs[CURVE_MAXPTS];
    size_t m;
    int group;
};

static int same_group(const struct curve *a, const struct curve *b)
{
    return a->dir == b->dir && !strcmp(a->engine, b->engine) && !strcmp(a->workload, b->workload);
}

/* The dash of result group g (1-based): dash type 3, dotted, is the ideal
 * line's alone, so a data line is never mistaken for it. */
static int group_dash(int g)
{
    static const int dash[] = {1, 2, 4, 5};
    return dash[(g - 1) % 4];
}

/* The series of curve c's group for this thread count, new when there is none yet. */
static struct cpu_series *series_of(struct cpu_series *se, size_t *ns, const struct curve *c,
                                    double threads, int group)
{
    for (size_t q = 0; q < *ns; q++)
        if (se[q].c == c && se[q].threads == threads)
            return &se[q];
    struct cpu_series *s = &se[(*ns)++];
    s->c = c, s->threads = threads, s->group = group;
    return s;
}

/* A point into s, kept sorted by CPU count; the first of a CPU count stays. */
static void series_add(struct cpu_series *s, double cpus, const struct stats_summary *tp)
{
    int dup = 0;
    for (size_t a = 0; a < s->m; a++)
        dup |= s->cx[a] == cpus;
    if (dup || s->m == CURVE_MAXPTS)
        return;
    for (size_t a = s->m++;; a--) {
        if (a == 0 || s->cx[a - 1] < cpus) {
            s->cx[a] = cpus, s->cs[a] = tp;
            return;
        }
        s->cx[a] = s->cx[a - 1], s->cs[a] = s->cs[a - 1];
    }
}

/* Every (group, threads) series of the curves, groups numbered from 1 in
 * order of first appearance. The series count. */
static size_t collect_series(const struct curves *cv, struct cpu_series *se)
{
    size_t ns = 0;
    int ngroups = 0;
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
        int newgroup = 1;
        for (size_t j = 0; j < i; j++)
            newgroup &= !same_group(&cv->c[j], c);
        if (!newgroup)
            continue;
        ngroups++;
        for (size_t j = i; j < cv->nc; j++) {
            const struct curve *o = &cv->c[j];
            if (!same_group(o, c))
                continue;
            for (size_t u = 0; u < o->k; u++)
                series_add(series_of(se, &ns, c, o->n[u], ngroups), o->cpus, &o->tp[u]);
        }
    }
    return ns;
}

/* Keep series spanning >= 2 CPU counts; their thread counts, sorted, into
 * ths (a series' colour is its place there). The series kept. */
static size_t keep_spanning(struct cpu_series *se, size_t ns, double *ths, size_t *nths)
{
    size_t keep = 0;
    *nths = 0;
    for (size_t q = 0; q < ns; q++) {
        if (se[q].m < 2)
            continue;
        se[keep++] = se[q];
        int seen = 0;
        for (size_t a = 0; a < *nths; a++)
            seen |= ths[a] == se[q].threads;
        if (!seen && *nths < CURVE_MAXPTS)
            ths[(*nths)++] = se[q].threads;
    }
    qsort(ths, *nths, sizeof *ths, cmp_double);
    return keep;
}

/* Whether series q has the highest median at its most CPUs within its group. */
static int best_in_group(const struct cpu_series *se, size_t ns, size_t q)
{
    const struct cpu_series *s = &se[q];
    for (size_t r = 0; r < ns; r++)
        if (se[r].group == s->group && se[r].cs[se[r].m - 1]->median > s->cs[s->m - 1]->median)
            return 0;
    return 1;
}

/* Series q's data file, named into name; *ymax raised to its frame, its CPU
 * counts added to xs. 0 or below 0 as plot_gp_write. */
static int series_data(const struct curves *cv, const struct plot_out *o,
                       const struct cpu_series *s, size_t q, int best, double *ymax, double *xs,
                       size_t *nx, char *name, size_t len)
{
    const struct curve *c = s->c;
    struct sbuf d = {0};
    sbuf_printf(&d,
                "# %s %s %s, %g client threads\n"
                "# 1 cpus, 2 median tps, 3 min, 4 max, 5 ideal linear tps\n",
                cv->dirs[c->dir].name, c->engine, c->workload, s->threads);
    for (size_t a = 0; a < s->m; a++) {
        double ideal_tps = s->cx[a] * s->cs[0]->median / s->cx[0];
        sbuf_printf(&d, "%g %.3f %.3f %.3f %.3f\n", s->cx[a], s->cs[a]->median, s->cs[a]->min,
                    s->cs[a]->max, ideal_tps);
        /* the frame holds the ideal where it is drawn, not only the data */
        *ymax = fmax(*ymax, best ? fmax(s->cs[a]->max, ideal_tps) : s->cs[a]->max);
        int seen = 0;
        for (size_t r = 0; r < *nx; r++)
            seen |= xs[r] == s->cx[a];
        if (!seen && *nx < CURVE_MAXPTS)
            xs[(*nx)++] = s->cx[a];
    }
    snprintf(name, len, "cpus%02zu.dat", q + 1);
    int rc = plot_gp_write(o, name, &d);
    sbuf_free(&d);
    return rc;
}

/* What each dash stands for, in the legend (a group: one results
 * directory's engine and workload). */
static void group_legend(const struct curves *cv, const struct cpu_series *se, size_t ns,
                         struct sbuf *vars)
{
    struct sbuf gn = {0}, gd = {0};
    int ng = 0, last = 0;
    for (size_t q = 0; q < ns; q++) {
        if (se[q].group == last)
            continue;
        last = se[q].group;
        const struct curve *c = se[q].c;
        char g[200];
        static const char *dname[] = {"", "solid", "dashed", "", "dash-dot", "dash-dot-dot"};
        snprintf(g, sizeof g, "%s: %s %s", dname[group_dash(last)], cv->dirs[c->dir].name,
                 c->engine);
        sbuf_add(&gn, ", ", ng ? 2 : 0);
        plot_gp_str(&gn, g);
        sbuf_printf(&gd, "%s%d", ng ? ", " : "", group_dash(last));
        ng++;
    }
    sbuf_printf(vars, "ngroup = %d\narray gname[%d] = [%s]\narray gdt[%d] = [%s]\n", ng, ng, gn.s,
                ng, gd.s);
    sbuf_free(&gn), sbuf_free(&gd);
}

/* Throughput vs CPU count: one series per (dir, engine, workload, threads),
 * x the cpus of its curves. Colour = thread count, dash = results group; the
 * ideal line only for each group's best series, to keep the picture legible.
 * Returns the series count (0: fewer than two CPU counts anywhere) or -1. */
int plot_gp_cpus_vars(const struct curves *cv, const struct plot_out *o, struct sbuf *vars,
                      double *ymax)
{
    struct cpu_series *se = xcalloc(cv->nc * CURVE_MAXPTS + 1, sizeof *se);
    double ths[CURVE_MAXPTS];
    size_t nths;
    size_t ns = keep_spanning(se, collect_series(cv, se), ths, &nths);
    struct sbuf files = {0}, labels = {0}, lts = {0}, dts = {0}, ideal = {0};
    double xs[CURVE_MAXPTS];
    size_t nx = 0;
    *ymax = 0;
    int rc = (int)ns;
    for (size_t q = 0; q < ns && rc >= 0; q++) {
        struct cpu_series *s = &se[q];
        const struct curve *c = s->c;
        int best = best_in_group(se, ns, q);
        char name[64];
        if (series_data(cv, o, s, q, best, ymax, xs, &nx, name, sizeof name) < 0)
            rc = -1;
        size_t colour = 0;
        while (colour < nths && ths[colour] != s->threads)
            colour++;
        const char *sep = q ? ", " : "";
        sbuf_printf(&files, "%s\"%s\"", sep, name);
        sbuf_printf(&lts, "%s%zu", sep, colour + 1);
        sbuf_printf(&dts, "%s%d", sep, group_dash(s->group));
        sbuf_printf(&ideal, "%s%d", sep, best);
        char label[256];
        snprintf(label, sizeof label, "%s, %g thread%s%s",
                 cv->dirs[c->dir].server[0] ? cv->dirs[c->dir].server : c->engine, s->threads,
                 s->threads == 1 ? "" : "s", best ? " (with ideal)" : "");
        sbuf_add(&labels, sep, strlen(sep));
        plot_gp_str(&labels, label);
    }
    if (rc > 0) {
        sbuf_printf(vars,
                    "n = %zu\narray file[%zu] = [%s]\narray label[%zu] = [%s]\n"
                    "array ltv[%zu] = [%s]\narray dtv[%zu] = [%s]\narray ideal[%zu] = [%s]\n",
                    ns, ns, files.s, ns, labels.s, ns, lts.s, ns, dts.s, ns, ideal.s);
        group_legend(cv, se, ns, vars);
        plot_gp_xaxis(vars, xs, nx);
    }
    sbuf_free(&files), sbuf_free(&labels), sbuf_free(&lts), sbuf_free(&dts), sbuf_free(&ideal);
    free(se);
    return rc;
}
