/*
 * ktable.c - the kernel variants' points, boots as the unit (see ktable.h).
 *
 * The one idea: a point is matched across variants by what was measured
 * (workload, the CPUs the server had, threads; or kernel test, mode, CPUs,
 * tasks), never by the sweep's variant label, which differs by design ("up"
 * on a kernel booted with one CPU, "smp-k1" on an SMP kernel held to one).
 * Rows are first gathered as (point, variant, boot, value); then each boot's
 * repeats become one value, their median, so that a boot that ran ten
 * repeats weighs what a boot that ran one does, and the spread a test sees
 * is the spread between boots, which is what another boot would show.
 *
 * Never test repeats of one boot as independent: three tight repeats in
 * each of two boots are two values a side, not six.
 */
#include "analysis/ktable.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "results/benchcsv.h"
#include "stats/fdr.h"
#include "stats/stats.h"

/* One row's value before the boots are reduced. */
struct obs {
    size_t point, var, boot;
    double v;
};

/* The observations, and an index of the points by key (open addressing
 * over t->p, so a study of thousands of points is not searched row by row). */
struct gather {
    struct obs *o;
    size_t n, cap;
    size_t *slot; /* point index + 1, 0 empty */
    size_t nslot;
};

static size_t key_hash(const char *k1, const char *k2, int cpus, double x)
{
    size_t h = 1469598103934665603u;
    for (const char *s = k1; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    h = (h ^ 0xff) * 1099511628211u;
    for (const char *s = k2; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    h = (h ^ (size_t)cpus) * 1099511628211u;
    return (h ^ (size_t)(long long)(x * 1024)) * 1099511628211u;
}

static int key_is(const struct ktable_point *q, const char *k1, const char *k2, int cpus, double x)
{
    return q->cpus == cpus && q->x == x && !strcmp(q->k1, k1) && !strcmp(q->k2, k2);
}

static void rehash(struct ktable *t, struct gather *g)
{
    free(g->slot);
    g->nslot = g->nslot ? 2 * g->nslot : 256;
    g->slot = xcalloc(g->nslot, sizeof *g->slot);
    for (size_t i = 0; i < t->n; i++) {
        const struct ktable_point *q = &t->p[i];
        size_t h = key_hash(q->k1, q->k2, q->cpus, q->x) & (g->nslot - 1);
        while (g->slot[h])
            h = (h + 1) & (g->nslot - 1);
        g->slot[h] = i + 1;
    }
}

static size_t point_of(struct ktable *t, struct gather *g, const char *k1, const char *k2, int cpus,
                       double x)
{
    if (2 * (t->n + 1) > g->nslot)
        rehash(t, g);
    /* keys are stored cut to their fields' sizes, and looked up so */
    char c1[sizeof t->p->k1], c2[sizeof t->p->k2];
    snprintf(c1, sizeof c1, "%s", k1);
    snprintf(c2, sizeof c2, "%s", k2);
    size_t h = key_hash(c1, c2, cpus, x) & (g->nslot - 1);
    for (; g->slot[h]; h = (h + 1) & (g->nslot - 1))
        if (key_is(&t->p[g->slot[h] - 1], c1, c2, cpus, x))
            return g->slot[h] - 1;
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->p = xrealloc(t->p, t->cap * sizeof *t->p);
    }
    struct ktable_point *q = &t->p[t->n];
    memset(q, 0, sizeof *q);
    snprintf(q->k1, sizeof q->k1, "%s", c1);
    snprintf(q->k2, sizeof q->k2, "%s", c2);
    q->cpus = cpus, q->x = x;
    g->slot[h] = t->n + 1;
    return t->n++;
}

static void add(struct ktable *t, struct gather *g, struct kvariant *v, size_t var, const char *k1,
                const char *k2, int cpus, double x, const char *boot, double value)
{
    if (!isfinite(value) || !(value > 0))
        return; /* not measured: no value, never a 0 */
    if (g->n == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 256;
        g->o = xrealloc(g->o, g->cap * sizeof *g->o);
    }
    g->o[g->n++] =
        (struct obs){point_of(t, g, k1, k2, cpus, x), var, kvariants_boot(v, boot), value};
}

static void db_rows(const struct curves *cv, struct kvariants *kv, struct ktable *t,
                    struct gather *g)
{
    for (size_t d = 0; d < kv->n; d++) {
        const struct result_set *rs = &cv->dirs[d].rs;
        for (size_t i = 0; i < rs->n; i++) {
            const struct result_row *r = &rs->rows[i];
            add(t, g, &kv->v[d], d, r->engine, r->workload, r->cpus, r->threads, r->boot, r->tps);
        }
    }
}

/* A kernel test's CPUs as a key: 0 when its tasks had every CPU the
 * kernel brought online (a UP kernel's one, an SMP kernel's all), so that
 * kernels are compared at the same tasks on their whole machines, as the
 * reference table does; the count when they were held to fewer. */
static int held(const struct kvariant *v, int cpus)
{
    return v->has && v->f.nonline > 0 && cpus == v->f.nonline ? 0 : cpus;
}

/* micro.csv's tests and fs.csv's two operations: rows that measured. A file
 * that cannot be read is left out here as curves_baseline_load has said. */
static void kernel_rows(struct kvariants *kv, struct ktable *t, struct gather *g)
{
    for (size_t d = 0; d < kv->n; d++) {
        const struct kvariant *v = &kv->v[d];
        char path[600], err[600];
        struct microcsv_row *m = NULL;
        size_t n = 0;
        snprintf(path, sizeof path, "%s/micro.csv", kv->v[d].path);
        if (access(path, F_OK) == 0 && microcsv_read(path, &m, &n, err, sizeof err) == 0)
            for (size_t i = 0; i < n; i++)
                if (!m[i].error[0])
                    add(t, g, &kv->v[d], d, m[i].test, m[i].mode, held(v, m[i].cpus), m[i].tasks,
                        m[i].boot, m[i].ops);
        free(m);
        struct fscsv_row *f = NULL;
        n = 0;
        snprintf(path, sizeof path, "%s/fs.csv", kv->v[d].path);
        if (access(path, F_OK) == 0 && fscsv_read(path, &f, &n, err, sizeof err) == 0)
            for (size_t i = 0; i < n; i++) {
                if (f[i].error[0])
                    continue;
                char setup[64];
                snprintf(setup, sizeof setup, "%s, %d files%s%s", f[i].fs_type, f[i].files,
                         f[i].shared_dir ? ", one dir" : "", f[i].fsync ? ", fsync" : "");
                add(t, g, &kv->v[d], d, "fs create (files/s)", setup, held(v, f[i].cpus),
                    f[i].tasks, f[i].boot, f[i].create_per_s);
                add(t, g, &kv->v[d], d, "fs remove (files/s)", setup, held(v, f[i].cpus),
                    f[i].tasks, f[i].boot, f[i].remove_per_s);
            }
        free(f);
    }
}

static int obs_cmp(const void *a, const void *b)
{
    const struct obs *x = a, *y = b;
    if (x->point != y->point)
        return x->point < y->point ? -1 : 1;
    if (x->var != y->var)
        return x->var < y->var ? -1 : 1;
    return (x->boot > y->boot) - (x->boot < y->boot);
}

/* Each (point, variant, boot)'s repeats into their median; then each
 * (point, variant)'s boots into theirs. */
static void reduce(struct ktable *t, const struct kvariants *kv, struct gather *g)
{
    if (g->n)
        qsort(g->o, g->n, sizeof *g->o, obs_cmp);
    double *buf = xmalloc((g->n + 1) * sizeof *buf);
    for (size_t i = 0; i < g->n;) {
        size_t j = i, k = 0;
        while (j < g->n && g->o[j].point == g->o[i].point && g->o[j].var == g->o[i].var &&
               g->o[j].boot == g->o[i].boot)
            buf[k++] = g->o[j++].v;
        struct ktable_point *q = &t->p[g->o[i].point];
        size_t v = g->o[i].var, nb = kv->v[v].nboots;
        if (!q->boot[v]) {
            q->boot[v] = xmalloc(nb * sizeof(double));
            q->blen[v] = nb;
            for (size_t b = 0; b < nb; b++)
                q->boot[v][b] = NAN;
        }
        q->boot[v][g->o[i].boot] = stats_median(buf, k);
        q->nboot[v]++;
        q->nrep[v] += k;
        i = j;
    }
    for (size_t r = 0; r < t->n; r++)
        for (size_t v = 0; v < t->nv; v++) {
            struct ktable_point *q = &t->p[r];
            size_t k = 0;
            for (size_t b = 0; b < q->blen[v]; b++)
                if (isfinite(q->boot[v][b]))
                    buf[k++] = q->boot[v][b];
            q->med[v] = k ? stats_median(buf, k) : NAN;
        }
    free(buf);
}

static int kp_cmp(const void *a, const void *b)
{
    const struct ktable_point *x = a, *y = b;
    int c = strcmp(x->k1, y->k1);
    if (!c)
        c = strcmp(x->k2, y->k2);
    if (!c)
        c = (x->cpus > y->cpus) - (x->cpus < y->cpus);
    if (!c)
        c = (x->x > y->x) - (x->x < y->x);
    return c;
}

static size_t npairs(size_t nv)
{
    return nv * (nv - (nv > 0)) / 2;
}

static size_t pair_index(size_t nv, size_t i, size_t j)
{
    return i * nv - i * (i + 1) / 2 + (j - i - 1);
}

const struct ktable_cell *ktable_cell(const struct ktable *t, size_t r, size_t i, size_t j)
{
    return &t->c[r * npairs(t->nv) + pair_index(t->nv, i, j)];
}

/* A boot's values of one variant at a point (the finite ones), into out. */
static size_t boot_values(const struct ktable_point *q, size_t v, double *out)
{
    size_t k = 0;
    for (size_t b = 0; b < q->blen[v]; b++)
        if (isfinite(q->boot[v][b]))
            out[k++] = q->boot[v][b];
    return k;
}

/* Every cell's relative % and Welch p over the boots, then one BH family
 * over the table's tests: a cell is marked where its difference holds at
 * KTABLE_FDR false discoveries over all of them. */
static void cells(struct ktable *t, const struct kvariants *kv)
{
    size_t np = npairs(t->nv), maxb = 1;
    for (size_t v = 0; v < t->nv; v++)
        maxb = kv->v[v].nboots > maxb ? kv->v[v].nboots : maxb;
    t->c = xcalloc(t->n * np + 1, sizeof *t->c);
    double *a = xmalloc(maxb * sizeof *a), *b = xmalloc(maxb * sizeof *b);
    double *p = xmalloc((t->n * np + 1) * sizeof *p);
    for (size_t r = 0; r < t->n; r++)
        for (size_t i = 0; i < t->nv; i++)
            for (size_t j = i + 1; j < t->nv; j++) {
                const struct ktable_point *q = &t->p[r];
                struct ktable_cell *c = &t->c[r * np + pair_index(t->nv, i, j)];
                c->p = c->q = p[r * np + pair_index(t->nv, i, j)] = NAN;
                double mi = q->med[i], mj = q->med[j];
                if (!isfinite(mi) || !isfinite(mj) || fabs((mi - mj) / mj) >= 9e16 ||
                    stats_relpct(mi, mj, &c->rel) < 0) {
                    c->mark = KTABLE_NA;
                    continue;
                }
                c->na = boot_values(q, i, a);
                c->nb = boot_values(q, j, b);
                struct stats_welch w;
                if (stats_welch(a, c->na, b, c->nb, &w) < 0) {
                    c->mark = KTABLE_NO_TEST;
                    continue;
                }
                c->p = p[r * np + pair_index(t->nv, i, j)] = w.p;
                t->tests++;
            }
    double *qv = xmalloc((t->n * np + 1) * sizeof *qv);
    stats_bh(p, t->n * np, qv);
    for (size_t k = 0; k < t->n * np; k++) {
        if (!isfinite(t->c[k].p))
            continue;
        t->c[k].q = qv[k];
        t->c[k].mark = qv[k] <= KTABLE_FDR ? KTABLE_DIFF : KTABLE_SAME;
        t->marked += t->c[k].mark == KTABLE_DIFF;
    }
    free(qv);
    free(p);
    free(a);
    free(b);
}

void ktable_build(const struct curves *cv, struct kvariants *kv, enum ktable_kind kind,
                  struct ktable *t)
{
    memset(t, 0, sizeof *t);
    t->kind = kind;
    t->nv = kv->n;
    struct gather g = {0};
    if (kind == KTABLE_DB)
        db_rows(cv, kv, t, &g);
    else
        kernel_rows(kv, t, &g);
    reduce(t, kv, &g);
    free(g.o);
    free(g.slot);
    /* sorted only now: the observations hold indices into t->p */
    if (t->n)
        qsort(t->p, t->n, sizeof *t->p, kp_cmp);
    cells(t, kv);
}

void ktable_free(struct ktable *t)
{
    for (size_t i = 0; i < t->n; i++)
        for (size_t v = 0; v < KVARIANTS_MAX; v++)
            free(t->p[i].boot[v]);
    free(t->p);
    free(t->c);
    memset(t, 0, sizeof *t);
}
