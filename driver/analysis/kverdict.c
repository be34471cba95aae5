/*
 * kverdict.c - the SMP write-up's two sentences, computed (see kverdict.h).
 *
 * The one idea: the boots are the replicates. Points measured in one boot
 * share that boot's luck (where its memory landed, what the host did
 * meanwhile), so with two or more boots a side each boot pair is one unit:
 * its points' log ratios are averaged, and the interval is a t interval
 * over the pairs, however many points each had. With one boot a side the
 * points are all there is, and their disagreement is the spread: the
 * -11%, +43%, +35% of three points pool to +20%, 95% interval -37%..+128%,
 * not established.
 *
 * Never a change without its interval or its reason for having none.
 */
#include "analysis/kverdict.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/util.h"

#define KV_UNITS 1024

static double boot_at(const struct ktable_point *q, size_t v, size_t b)
{
    return b < q->blen[v] ? q->boot[v][b] : NAN;
}

/* The class of a pooled change, and the range of its units' changes. */
static void settle(struct kverdict_one *o, const double *r, size_t m)
{
    o->lo_unit = o->hi_unit = NAN;
    for (size_t i = 0; i < m; i++) {
        double c = r[i] - 1;
        if (i == 0 || c < o->lo_unit)
            o->lo_unit = c;
        if (i == 0 || c > o->hi_unit)
            o->hi_unit = c;
    }
    stats_pooled(r, m, 0.95, &o->pooled);
    o->cls = o->pooled.why != STATS_POOLED_OK ? KVERDICT_INCONCLUSIVE
             : o->pooled.established          ? KVERDICT_ESTABLISHED
                                              : KVERDICT_NOT_ESTABLISHED;
}

static void name_pairs(struct kverdict_one *o, const struct kvariants *kv, size_t (*pr)[2],
                       size_t np)
{
    size_t at = 0;
    for (size_t j = 0; j < np && at < sizeof o->pairs; j++) {
        int k = snprintf(o->pairs + at, sizeof o->pairs - at, "%s%s-%s", j ? ", " : "",
                         kv->v[o->s].boots[pr[j][0]].name, kv->v[o->u].boots[pr[j][1]].name);
        if (k < 0)
            break;
        at += (size_t)k;
    }
}

/* The unit of replication: the boot pairs' ratios rb[m] where two or more
 * pair up, else the points' r[npoints]. Whether a change came of it. */
static int unit_of(struct kverdict_one *o, const struct kvariants *kv, size_t (*used)[2],
                   const double *rb, size_t m, const double *r)
{
    if (m >= 2) {
        o->unit = KVERDICT_BOOTS;
        name_pairs(o, kv, used, m);
        settle(o, rb, m);
    } else {
        o->unit = KVERDICT_POINTS;
        settle(o, r, o->npoints);
    }
    return o->pooled.why != STATS_POOLED_BAD;
}

/* The rows of t from i on with the same k1 and k2: the end of i's group. */
static size_t group_end(const struct ktable *t, size_t i)
{
    size_t j = i;
    while (j < t->n && !strcmp(t->p[j].k1, t->p[i].k1) && !strcmp(t->p[j].k2, t->p[i].k2))
        j++;
    return j;
}

/* In rows [i, e) of one kernel test: the row at one task with variant v's
 * value, held to one CPU when there is one, else on all its CPUs; SIZE_MAX
 * when none. *one says which. */
static size_t one_task(const struct ktable *t, size_t i, size_t e, size_t v, int *one)
{
    size_t all = (size_t)-1;
    for (size_t k = i; k < e; k++) {
        const struct ktable_point *q = &t->p[k];
        if (q->x != 1 || !isfinite(q->med[v]))
            continue;
        if (q->cpus == 1) {
            *one = 1;
            return k;
        }
        if (q->cpus == 0)
            all = k;
    }
    *one = 0;
    return all;
}

/* The cost sentence's units as rows (SMP's, UP's): the database points both
 * measured on one CPU; or per kernel test, each at one task, SMP held to
 * one CPU where it was (o->held counts those), else on all its CPUs. */
static size_t cost_rows(const struct ktable *t, size_t s, size_t u, size_t (*rows)[2],
                        struct kverdict_one *o)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n && n < KV_UNITS; i = group_end(t, i)) {
        size_t e = group_end(t, i);
        if (t->kind == KTABLE_DB) {
            for (size_t k = i; k < e && n < KV_UNITS; k++)
                if (t->p[k].cpus == 1 && isfinite(t->p[k].med[s]) && isfinite(t->p[k].med[u]))
                    rows[n][0] = rows[n][1] = k, n++;
            continue;
        }
        int one_s, one_u;
        size_t rs = one_task(t, i, e, s, &one_s), ru = one_task(t, i, e, u, &one_u);
        if (rs != (size_t)-1 && ru != (size_t)-1) {
            rows[n][0] = rs, rows[n][1] = ru, n++;
            o->held += (size_t)one_s;
        }
    }
    return n;
}

/* SMP held to one CPU against UP: 1 when there was a point both measured. */
static int cost(const struct kvariants *kv, const struct ktable *t, size_t s, size_t u,
                struct kverdict_one *o)
{
    memset(o, 0, sizeof *o);
    o->kind = KVERDICT_COST, o->s = s, o->u = u, o->on = t->kind;
    size_t pr[KV_UNITS][2], np = kvariants_pairs(&kv->v[s], &kv->v[u], pr, KV_UNITS);
    size_t rows[KV_UNITS][2];
    o->npoints = cost_rows(t, s, u, rows, o);
    if (!o->npoints)
        return 0;
    double r[KV_UNITS];
    for (size_t i = 0; i < o->npoints; i++) {
        const struct ktable_point *a = &t->p[rows[i][0]], *b = &t->p[rows[i][1]];
        r[i] = a->med[s] / b->med[u];
        o->nboots_s = a->nboot[s] > o->nboots_s ? a->nboot[s] : o->nboots_s;
        o->nboots_u = b->nboot[u] > o->nboots_u ? b->nboot[u] : o->nboots_u;
    }
    /* each boot pair one unit: the geometric mean of its points' ratios */
    double rb[KV_UNITS];
    size_t m = 0, used[KV_UNITS][2];
    for (size_t j = 0; j < np; j++) {
        double sum = 0;
        size_t k = 0;
        for (size_t i = 0; i < o->npoints; i++) {
            double a = boot_at(&t->p[rows[i][0]], s, pr[j][0]);
            double b = boot_at(&t->p[rows[i][1]], u, pr[j][1]);
            if (isfinite(a) && isfinite(b))
                sum += log(a / b), k++;
        }
        if (k)
            used[m][0] = pr[j][0], used[m][1] = pr[j][1], rb[m++] = exp(sum / (double)k);
    }
    return unit_of(o, kv, used, rb, m, r);
}

/* The highest of variant v's values over rows [i, e): the median over its
 * boots (b == SIZE_MAX) or boot b's; NAN when none. */
static double peak(const struct ktable *t, size_t i, size_t e, size_t v, size_t b, size_t *at)
{
    double best = NAN;
    for (size_t k = i; k < e; k++) {
        double x = b == (size_t)-1 ? t->p[k].med[v] : boot_at(&t->p[k], v, b);
        if (isfinite(x) && (!isfinite(best) || x > best))
            best = x, *at = k;
    }
    return best;
}

/* SMP's best against UP's best, per workload or kernel test. */
static int peaks(const struct kvariants *kv, const struct ktable *t, size_t s, size_t u,
                 struct kverdict_one *o)
{
    memset(o, 0, sizeof *o);
    o->kind = KVERDICT_PEAK, o->s = s, o->u = u, o->on = t->kind;
    size_t pr[KV_UNITS][2], np = kvariants_pairs(&kv->v[s], &kv->v[u], pr, KV_UNITS);
    double r[KV_UNITS], rb[KV_UNITS];
    size_t m = 0, used[KV_UNITS][2];
    for (size_t i = 0; i < t->n && o->npoints < KV_UNITS; i = group_end(t, i)) {
        size_t e = group_end(t, i), as = 0, au = 0;
        double ps = peak(t, i, e, s, (size_t)-1, &as), pu = peak(t, i, e, u, (size_t)-1, &au);
        if (!isfinite(ps) || !isfinite(pu))
            continue;
        if (o->npoints == 0) {
            snprintf(o->key, sizeof o->key, "%s %s", t->p[as].k1, t->p[as].k2);
            o->peak_s = ps, o->peak_u = pu, o->x_s = t->p[as].x, o->x_u = t->p[au].x;
            o->cpus_s = t->p[as].cpus, o->cpus_u = t->p[au].cpus;
        }
        r[o->npoints++] = ps / pu;
        for (size_t k = i; k < e; k++) {
            o->nboots_s = t->p[k].nboot[s] > o->nboots_s ? t->p[k].nboot[s] : o->nboots_s;
            o->nboots_u = t->p[k].nboot[u] > o->nboots_u ? t->p[k].nboot[u] : o->nboots_u;
        }
    }
    if (!o->npoints)
        return 0;
    o->where = t->kind == KTABLE_DB && o->npoints == 1;
    for (size_t j = 0; j < np; j++) {
        double sum = 0;
        size_t k = 0, at;
        for (size_t i = 0; i < t->n; i = group_end(t, i)) {
            size_t e = group_end(t, i);
            double ps = peak(t, i, e, s, pr[j][0], &at), pu = peak(t, i, e, u, pr[j][1], &at);
            if (isfinite(ps) && isfinite(pu))
                sum += log(ps / pu), k++;
        }
        if (k)
            used[m][0] = pr[j][0], used[m][1] = pr[j][1], rb[m++] = exp(sum / (double)k);
    }
    return unit_of(o, kv, used, rb, m, r);
}

void kverdict_build(const struct kvariants *kv, const struct ktable *db, const struct ktable *kt,
                    struct kverdict *v)
{
    memset(v, 0, sizeof *v);
    const struct ktable *t = db->n ? db : kt;
    for (int same = 1; same >= 0 && !v->n; same--) /* same release first */
        for (size_t s = 0; s < kv->n; s++)
            for (size_t u = 0; u < kv->n; u++) {
                if (!kvariants_is_smp(&kv->v[s]) || !kvariants_is_up(&kv->v[u]) ||
                    (same && strcmp(kv->v[s].f.release, kv->v[u].f.release) != 0))
                    continue;
                if (v->n + 2 > KVERDICT_MAX) {
                    v->more++;
                    continue;
                }
                v->n += (size_t)cost(kv, t, s, u, &v->s[v->n]);
                v->n += (size_t)peaks(kv, t, s, u, &v->s[v->n]);
            }
}

/* ---- the sentences' words, for the page and the text alike ---- */

char kverdict_letter(size_t v)
{
    return (char)('A' + v % 26);
}

/* A change (a fraction) as a signed percent: whole, or to a tenth below
 * 1%, never "-0%". */
static void pct(char *out, size_t len, double f)
{
    double x = 100 * f;
    if (fabs(x) < 0.95 && round(x * 10) != 0)
        snprintf(out, len, "%+.1f%%", x);
    else
        snprintf(out, len, "%+.0f%%", round(x) == 0 ? 0 : round(x));
}

static const char *up_how(const struct kvariant *u)
{
    return !strcmp(u->f.boot, "built") ? "built without SMP" : "booted with one CPU";
}

/* The words before the colon: the conclusion, or that there is none. */
static void head(const struct kverdict_one *o, struct sbuf *b)
{
    double e = o->pooled.est;
    char p[16];
    pct(p, sizeof p, fabs(e));
    int cost = o->kind == KVERDICT_COST;
    /* kernel tests never held to one CPU: the SMP overhead at one task */
    const char *what = o->on == KTABLE_KERNEL && !o->held ? "SMP at one task" : "SMP on one CPU";
    if (o->cls == KVERDICT_ESTABLISHED && cost)
        sbuf_printf(b, "%s %s %s", what, e < 0 ? "costs" : "gains", p + 1);
    else if (o->cls == KVERDICT_ESTABLISHED)
        sbuf_printf(b, "SMP peaks %s %s UP", p + 1, e < 0 ? "below" : "above");
    else
        sbuf_printf(b, "%s%s: %s", cost ? what : "SMP's peak",
                    cost ? " against UP" : " against UP's",
                    o->cls == KVERDICT_INCONCLUSIVE ? "inconclusive" : "not established");
}

/* The pooled change and its interval, or why there is none. */
static void interval(const struct kverdict_one *o, struct sbuf *b)
{
    char e[16], lo[16], hi[16];
    pct(e, sizeof e, o->pooled.est);
    if (o->pooled.why == STATS_POOLED_OK) {
        pct(lo, sizeof lo, o->pooled.lo);
        pct(hi, sizeof hi, o->pooled.hi);
        sbuf_printf(b, "%s, 95%% interval %s to %s%s", e, lo, hi,
                    o->cls == KVERDICT_ESTABLISHED ? "" : ", which spans 0");
    } else if (o->pooled.why == STATS_POOLED_ONE)
        sbuf_printf(b, "%s, no interval: one %s and fewer than two boots a side", e,
                    o->kind == KVERDICT_COST ? "point" : "workload");
    else
        sbuf_printf(b, "%s, no interval: its %zu units agree exactly, no spread to judge by", e,
                    o->pooled.m);
}

/* Over what, and which unit carried the interval. */
static void over(const struct kverdict_one *o, struct sbuf *b)
{
    int db = o->on == KTABLE_DB, cost = o->kind == KVERDICT_COST;
    size_t n = o->npoints;
    const char *what =
        cost ? (db ? "database point" : "kernel test") : (db ? "workload" : "kernel test");
    if (cost)
        sbuf_printf(b, "over the %zu %s%s both measured %s", n, what, n == 1 ? "" : "s",
                    db ? "on one CPU" : "at one task");
    else
        sbuf_printf(b, "over %zu %s%s", n, what, n == 1 ? "" : "s");
    if (o->unit == KVERDICT_BOOTS)
        sbuf_printf(b, "; each boot pair one unit (%s; %zu and %zu boots)", o->pairs, o->nboots_s,
                    o->nboots_u);
    else
        sbuf_printf(b, "; each %s one unit (fewer than two boot pairs: %zu and %zu boot%s)",
                    cost ? "point" : what, o->nboots_s, o->nboots_u, o->nboots_u == 1 ? "" : "s");
    if (o->pooled.m > 1 && isfinite(o->lo_unit)) {
        char lo[16], hi[16];
        pct(lo, sizeof lo, o->lo_unit);
        pct(hi, sizeof hi, o->hi_unit);
        const char *units = o->unit == KVERDICT_BOOTS ? "boot pairs" : cost ? "points" : "units";
        if (strcmp(lo, hi) != 0)
            sbuf_printf(b, "; the %s ran from %s to %s", units, lo, hi);
        else
            sbuf_printf(b, "; the %s were all %s when rounded", units, lo);
    }
}

void kverdict_sentence(const struct kvariants *kv, const struct kverdict_one *o, struct sbuf *out)
{
    const struct kvariant *s = &kv->v[o->s], *u = &kv->v[o->u];
    struct sbuf w = {0};
    head(o, &w);
    sbuf_printf(&w, " (");
    interval(o, &w);
    sbuf_printf(&w, "): %c (%s, SMP kernel", kverdict_letter(o->s), s->name);
    if (o->kind == KVERDICT_COST && o->on == KTABLE_DB)
        sbuf_printf(&w, ", server held to 1 CPU");
    else if (o->kind == KVERDICT_COST && o->held == o->npoints)
        sbuf_printf(&w, ", 1 task held to 1 CPU");
    else if (o->kind == KVERDICT_COST && o->held)
        sbuf_printf(&w,
                    ", 1 task, held to 1 CPU in %zu of the %zu tests and on all its CPUs in "
                    "the rest",
                    o->held, o->npoints);
    else if (o->kind == KVERDICT_COST)
        sbuf_printf(&w, ", 1 task on all its CPUs, never held to one");
    sbuf_printf(&w, ") against %c (%s, %s: %s), ", kverdict_letter(o->u), u->name, up_how(u),
                u->f.boot_why);
    over(o, &w);
    if (o->where)
        sbuf_printf(&w,
                    "; %s: %.1f tps at %d CPU%s and %g thread%s against %.1f tps at %g thread%s",
                    o->key, o->peak_s, o->cpus_s, o->cpus_s == 1 ? "" : "s", o->x_s,
                    o->x_s == 1 ? "" : "s", o->peak_u, o->x_u, o->x_u == 1 ? "" : "s");
    sbuf_printf(&w, ".");
    sbuf_add(out, w.s, w.len);
    sbuf_free(&w);
}
