/*
 * whypoint.c - the why files' rows gathered into the points of the curves.
 *
 * The one idea: a figure per repeat first (its CPUs summed, its waits summed
 * by class), then the median over the repeats that measured it, as the TPS
 * of a point is; an event missing from a repeat whose waits were measured
 * counts 0 there, so an event seen once in five repeats does not pass for a
 * typical one. What no repeat measured stays NAN: "not measured" never
 * reads as 0.
 */
#include "analysis/whypoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "results/waitclass.h"
#include "stats/stats.h"

const char *const whypoint_cat[WP_N] = {
    "server user CPU",  "server kernel CPU", "irq+softirq", "idle CPU",     "steal",
    "on CPU (sampled)", "lock waits",        "I/O waits",   "client waits", "other waits"};

#define MAXREP 256

static int same(const struct why_key *k, const struct whypoint *p)
{
    return k->cpus == p->cpus && k->threads == p->threads && !strcmp(k->variant, p->variant);
}

/* Whether a repeat measured anything: its results.csv row completed
 * transactions and is not marked disturbed (no rs: every repeat counts). */
static int kept(const struct result_set *rs, const struct why_key *k)
{
    if (k->repeat < 1)
        return 0;
    if (!rs)
        return 1;
    for (size_t i = 0; i < rs->n; i++) {
        const struct result_row *r = &rs->rows[i];
        if (r->cpus == k->cpus && r->threads == k->threads && r->repeat == k->repeat &&
            !strcmp(r->variant, k->variant))
            return r->tps > 0 && !r->disturbed;
    }
    return 0;
}

/* The kept repeats any file holds for point p. */
static int repeats_of(const struct whycsv *w, const struct result_set *rs, const struct whypoint *p,
                      int *rep)
{
    int n = 0;
#define SCAN(arr, cnt)                                                                             \
    for (size_t i = 0; i < w->cnt; i++) {                                                          \
        const struct why_key *k = &w->arr[i].k;                                                    \
        if (!same(k, p) || !kept(rs, k))                                                           \
            continue;                                                                              \
        int j = 0;                                                                                 \
        while (j < n && rep[j] != k->repeat)                                                       \
            j++;                                                                                   \
        if (j == n && n < MAXREP)                                                                  \
            rep[n++] = k->repeat;                                                                  \
    }
    SCAN(cpu, ncpu)
    SCAN(wait, nwait)
    SCAN(sched, nsched)
#undef SCAN
    return n;
}

/* The category of a wait, from its event's name (the one table). MariaDB's
 * time inside the engine's row calls is CPU with waits nested in it: no
 * category of its own, or it would be counted twice. */
static int cls_cat(const char *event)
{
    switch (waitclass_of(event)) {
    case WC_CPU:
        return WP_ONCPU;
    case WC_LOCK:
        return WP_LOCK;
    case WC_IO:
        return WP_IO;
    case WC_CLIENT:
        return WP_CLIENT;
    case WC_ENGINE:
        return -1;
    default:
        return WP_OTHER;
    }
}

/* The median of the values that were measured (not NAN); NAN when none. */
static double median_measured(double *v, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (!isnan(v[i]))
            v[k++] = v[i];
    return k ? stats_median(v, (size_t)k) : NAN;
}

static void fill_cats(const struct whycsv *w, struct whypoint *p, const int *rep, int nr)
{
    double v[WP_N][MAXREP];
    double sv[6][MAXREP];
    for (int c = 0; c < WP_N; c++)
        for (int r = 0; r < nr; r++)
            v[c][r] = NAN;
    for (int c = 0; c < 6; c++)
        for (int r = 0; r < nr; r++)
            sv[c][r] = NAN;
    for (int r = 0; r < nr; r++) {
        int cpus = 0;
        for (size_t i = 0; i < w->ncpu; i++) { /* the held CPUs, summed */
            const struct why_cpu *c = &w->cpu[i];
            if (c->k.repeat != rep[r] || !same(&c->k, p))
                continue;
            double add[] = {c->us_txn[WHY_USER], c->us_txn[WHY_SYSTEM],
                            c->us_txn[WHY_IRQ] + c->us_txn[WHY_SOFTIRQ],
                            c->us_txn[WHY_IDLE] + c->us_txn[WHY_IOWAIT], c->us_txn[WHY_STEAL]};
            for (int k = WP_USER; k <= WP_STEAL; k++) /* a NAN on one CPU stays NAN */
                v[k][r] = (cpus ? v[k][r] : 0) + add[k];
            cpus = 1;
        }
        int waited = 0;
        for (size_t i = 0; i < w->nwait; i++) {
            const struct why_wait *x = &w->wait[i];
            if (x->k.repeat != rep[r] || !same(&x->k, p))
                continue;
            if (!waited) /* this repeat's waits were measured: unseen ones are 0 */
                for (int k = WP_ONCPU; k <= WP_OTHER; k++)
                    v[k][r] = 0;
            waited = 1;
            int c = cls_cat(x->event);
            if (c >= 0)
                v[c][r] += x->us_txn;
        }
        for (size_t i = 0; i < w->nsched; i++) {
            const struct why_sched *s = &w->sched[i];
            if (s->k.repeat != rep[r] || !same(&s->k, p))
                continue;
            sv[0][r] = s->voluntary_txn, sv[1][r] = s->involuntary_txn;
            sv[2][r] = s->migrations_txn, sv[3][r] = s->runq_us_txn;
            sv[4][r] = s->user_us_txn, sv[5][r] = s->system_us_txn;
        }
    }
    double busy[MAXREP];
    for (int r = 0; r < nr; r++)
        busy[r] = v[WP_USER][r] + v[WP_KERNEL][r];
    p->held_busy_us = median_measured(busy, nr);
    for (int c = 0; c < WP_N; c++)
        p->cat[c] = median_measured(v[c], nr);
    /* the server's own CPU (sched.csv), not whoever shared its CPUs */
    double user = median_measured(sv[4], nr), sys = median_measured(sv[5], nr);
    if (!isnan(user) || !isnan(sys))
        p->cat[WP_USER] = user, p->cat[WP_KERNEL] = sys;
    p->voluntary_txn = median_measured(sv[0], nr);
    p->involuntary_txn = median_measured(sv[1], nr);
    p->migrations_txn = median_measured(sv[2], nr);
    p->runq_us_txn = median_measured(sv[3], nr);
}

static void fill(const struct whycsv *w, const struct result_set *rs, struct whypoint *p)
{
    int rep[MAXREP], nr = repeats_of(w, rs, p, rep);
    p->repeats = nr;
    fill_cats(w, p, rep, nr);
    /* events: the median of each over the repeats whose waits were measured,
     * 0 where such a repeat lacks it */
    p->nev = 0;
    int waited[MAXREP] = {0};
    for (size_t i = 0; i < w->nwait; i++)
        for (int r = 0; r < nr; r++)
            waited[r] |= w->wait[i].k.repeat == rep[r] && same(&w->wait[i].k, p);
    struct whypoint_ev all[256];
    int nall = 0;
    for (size_t i = 0; i < w->nwait; i++) {
        const struct why_wait *x = &w->wait[i];
        if (!same(&x->k, p) || !kept(rs, &x->k))
            continue;
        int j = 0;
        while (j < nall && strcmp(all[j].event, x->event) != 0)
            j++;
        if (j < nall || nall == 256)
            continue;
        snprintf(all[nall].event, sizeof all[nall].event, "%s", x->event);
        snprintf(all[nall].cls, sizeof all[nall].cls, "%s", waitclass_name(waitclass_of(x->event)));
        double per[MAXREP];
        for (int r = 0; r < nr; r++)
            per[r] = waited[r] ? 0 : NAN;
        for (size_t m = 0; m < w->nwait; m++) {
            const struct why_wait *y = &w->wait[m];
            if (!same(&y->k, p) || strcmp(y->event, x->event) != 0)
                continue;
            for (int r = 0; r < nr; r++)
                if (rep[r] == y->k.repeat)
                    per[r] += y->us_txn;
        }
        all[nall].us = median_measured(per, nr);
        if (!isnan(all[nall].us))
            nall++;
    }
    for (int a = 0; a < nall; a++) /* the largest first */
        for (int b = a + 1; b < nall; b++)
            if (all[b].us > all[a].us) {
                struct whypoint_ev t = all[a];
                all[a] = all[b], all[b] = t;
            }
    for (int a = 0; a < nall && p->nev < WHYPOINT_EV; a++)
        p->ev[p->nev++] = all[a];
}

size_t whypoint_build(const struct whycsv *w, const struct result_set *rs, struct whypoint **out)
{
    size_t n = 0, cap = 0;
    struct whypoint *p = NULL;
#define ADD(arr, cnt)                                                                              \
    for (size_t i = 0; i < w->cnt; i++) {                                                          \
        const struct why_key *k = &w->arr[i].k;                                                    \
        if (!kept(rs, k) || whypoint_find(p, n, k->variant, k->cpus, k->threads))                  \
            continue;                                                                              \
        if (n == cap) {                                                                            \
            cap = cap ? cap * 2 : 16;                                                              \
            p = xrealloc(p, cap * sizeof *p);                                                      \
        }                                                                                          \
        memset(&p[n], 0, sizeof p[n]);                                                             \
        snprintf(p[n].variant, sizeof p[n].variant, "%s", k->variant);                             \
        p[n].cpus = k->cpus, p[n].threads = k->threads;                                            \
        n++;                                                                                       \
    }
    ADD(cpu, ncpu)
    ADD(wait, nwait)
    ADD(sched, nsched)
#undef ADD
    for (size_t i = 0; i < n; i++)
        fill(w, rs, &p[i]);
    *out = p;
    return n;
}

const struct whypoint *whypoint_find(const struct whypoint *p, size_t n, const char *variant,
                                     int cpus, int threads)
{
    for (size_t i = 0; i < n; i++)
        if (p[i].cpus == cpus && p[i].threads == threads && !strcmp(p[i].variant, variant))
            return &p[i];
    return NULL;
}

double whypoint_event(const struct whypoint *p, const char *event)
{
    if (isnan(p->cat[WP_LOCK])) /* no waits measured at this point: nothing to say */
        return NAN;
    for (int i = 0; i < p->nev; i++)
        if (!strcmp(p->ev[i].event, event))
            return p->ev[i].us;
    return 0;
}
