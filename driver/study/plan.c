/*
 * plan.c - a study's variants and the order its runs go in.
 *
 * The one idea: interleave. A variant run after another on a machine that
 * drifts (a neighbour's load, a warming disk, thermal limits) takes the
 * drift as its own difference; so every round runs every variant once, in
 * the same order, and a variant's repeats are spread over the whole study.
 * Rounds added for a target interval keep that order and run only the
 * variants with points still wide, each restricted to those points.
 *
 * Pure: it computes names and orders, never runs or prints anything.
 */
#include "study/plan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

int study_label_ok(const char *s, size_t n)
{
    if (n == 0 || n >= STUDY_LABEL || s[0] == '.' || s[0] == '-')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("._+-", s[i]))
            return 0;
    return 1;
}

/* Does the axis put its label into names? */
static int named(const struct study_axis *a)
{
    return !(a->n == 1 && !a->v[0].label[0]);
}

struct study_variant *study_plan_variants(const struct study_axis *axes, int naxes, int *n,
                                          char *err, size_t errlen)
{
    long total = 1;
    for (int a = 0; a < naxes; a++)
        total *= axes[a].n > 0 ? axes[a].n : 0;
    *n = 0;
    if (naxes < 1 || total < 1) {
        snprintf(err, errlen, "no variant to run");
        return NULL;
    }
    if (total > STUDY_MAXVARIANTS) {
        snprintf(err, errlen, "%ld variants (the axes' product): a study has at most %d", total,
                 STUDY_MAXVARIANTS);
        return NULL;
    }
    struct study_variant *v = xcalloc((size_t)total, sizeof *v);
    for (long i = 0; i < total; i++) {
        long rest = i;
        for (int a = naxes - 1; a >= 0; a--) { /* the last axis fastest */
            v[i].value[a] = (int)(rest % axes[a].n);
            rest /= axes[a].n;
        }
        size_t len = 0;
        for (int a = 0; a < naxes; a++) {
            if (!named(&axes[a]))
                continue;
            const char *l = axes[a].v[v[i].value[a]].label;
            int w = snprintf(v[i].name + len, sizeof v[i].name - len, "%s%s", len ? "." : "", l);
            if (w < 0 || len + (size_t)w >= sizeof v[i].name) {
                snprintf(err, errlen, "variant name too long (the labels joined: %s...)",
                         v[i].name);
                free(v);
                return NULL;
            }
            len += (size_t)w;
        }
        if (!len) /* nothing named: one variant */
            snprintf(v[i].name, sizeof v[i].name, "base");
        /* OUT's own directories are no variant's */
        if (!strcmp(v[i].name, "log") || !strcmp(v[i].name, "console")) {
            snprintf(err, errlen,
                     "a variant named '%s' would be the study's own %s/ directory: choose another "
                     "label",
                     v[i].name, v[i].name);
            free(v);
            return NULL;
        }
    }
    *n = (int)total;
    return v;
}

/* The index of the axis called name, or -1. */
static int axis_of(const struct study_axis *axes, int naxes, const char *name)
{
    for (int a = 0; a < naxes; a++)
        if (!strcmp(axes[a].name, name))
            return a;
    return -1;
}

/* A run of variant vi in round r, its id's suffix m (0: none). */
static void fill_run(struct study_run *u, const struct study_axis *axes, int naxes,
                     const struct study_variant *v, int vi, int r, int m)
{
    memset(u, 0, sizeof *u);
    int ka = axis_of(axes, naxes, "kernel"), ba = axis_of(axes, naxes, "boot");
    u->vi = vi;
    u->repeat = r;
    u->kernel = ka >= 0 ? axes[ka].v[v[vi].value[ka]].index : -1;
    u->boot = ba >= 0 ? axes[ba].v[v[vi].value[ba]].index : -1;
    u->exit_code = -1;
    u->boot_s = -1;
    snprintf(u->variant, sizeof u->variant, "%s", v[vi].name);
    if (m)
        snprintf(u->id, sizeof u->id, "%s.r%d.%d", v[vi].name, r + 1, m);
    else
        snprintf(u->id, sizeof u->id, "%s.r%d", v[vi].name, r + 1);
}

struct study_run *study_plan_rounds(const struct study_axis *axes, int naxes,
                                    const struct study_variant *v, int nv, int rounds, int *nruns)
{
    *nruns = rounds * nv;
    struct study_run *runs = xcalloc((size_t)(*nruns > 0 ? *nruns : 1), sizeof *runs);
    for (int r = 0, i = 0; r < rounds; r++)
        for (int k = 0; k < nv; k++, i++)
            fill_run(&runs[i], axes, naxes, v, k, r, 0);
    return runs;
}

/* "1,2,4" of the sorted distinct values of x[0..n) into out. */
static void list_of(const int *x, int n, char *out, size_t len)
{
    size_t o = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= x[j] == x[i];
        if (!seen)
            o += (size_t)snprintf(out + o, o < len ? len - o : 0, "%s%d", o ? "," : "", x[i]);
    }
}

static int cmp_int(const void *a, const void *b)
{
    return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* The sorted thread counts wanted at cpus for variant vi into t (n). */
static int threads_at(const struct study_want *w, int nw, int vi, int cpus, int *t)
{
    int n = 0;
    for (int i = 0; i < nw; i++)
        if (w[i].vi == vi && w[i].cpus == cpus) {
            int seen = 0;
            for (int j = 0; j < n; j++)
                seen |= t[j] == w[i].threads;
            if (!seen)
                t[n++] = w[i].threads;
        }
    qsort(t, (size_t)n, sizeof *t, cmp_int);
    return n;
}

int study_plan_more(const struct study_axis *axes, int naxes, const struct study_variant *v, int nv,
                    int r, const struct study_want *want, int nwant, struct study_run **runs,
                    int *nruns)
{
    int added = 0;
    int *cpus = xcalloc((size_t)(nwant > 0 ? nwant : 1), sizeof *cpus);
    int *ta = xcalloc((size_t)(nwant > 0 ? nwant : 1), sizeof *ta);
    int *tb = xcalloc((size_t)(nwant > 0 ? nwant : 1), sizeof *tb);
    for (int vi = 0; vi < nv; vi++) {
        int nc = 0;
        for (int i = 0; i < nwant; i++) {
            int seen = 0;
            for (int j = 0; j < nc; j++)
                seen |= want[i].vi == vi && cpus[j] == want[i].cpus;
            if (want[i].vi == vi && !seen)
                cpus[nc++] = want[i].cpus;
        }
        if (!nc)
            continue;
        qsort(cpus, (size_t)nc, sizeof *cpus, cmp_int);
        /* one product of CPU counts x thread counts, or a run per CPU count */
        int na = threads_at(want, nwant, vi, cpus[0], ta), product = 1;
        for (int c = 1; c < nc && product; c++) {
            int nb = threads_at(want, nwant, vi, cpus[c], tb);
            product = nb == na && !memcmp(ta, tb, (size_t)na * sizeof *ta);
        }
        int groups = product ? 1 : nc;
        *runs = xrealloc(*runs, (size_t)(*nruns + groups) * sizeof **runs);
        for (int g = 0; g < groups; g++) {
            struct study_run *u = &(*runs)[(*nruns)++];
            fill_run(u, axes, naxes, v, vi, r, groups > 1 ? g + 1 : 0);
            int n = threads_at(want, nwant, vi, cpus[g], ta);
            list_of(product ? cpus : &cpus[g], product ? nc : 1, u->only_cpus, sizeof u->only_cpus);
            list_of(ta, n, u->only_threads, sizeof u->only_threads);
            added++;
        }
    }
    free(cpus);
    free(ta);
    free(tb);
    return added;
}
