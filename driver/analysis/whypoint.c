/*
 * whypoint.c - the why files' rows gathered into the points of the curves.
 *
 * The one idea: a figure per repeat first (its CPUs summed, its waits summed
 * by class), then the median over repeats, as the TPS of a point is; an
 * event missing from a repeat counts 0 there, so an event seen once in five
 * repeats does not pass for a typical one.
 */
#include "analysis/whypoint.h"

#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "core/util.h"

const char *const whypoint_cat[WP_N] = {
    "server user CPU",  "server kernel CPU", "irq+softirq", "idle CPU",     "steal",
    "on CPU (sampled)", "lock waits",        "I/O waits",   "client waits", "other waits"};

#define MAXREP 256

static int same(const struct why_key *k, const struct whypoint *p)
{
    return k->cpus == p->cpus && k->threads == p->threads && !strcmp(k->variant, p->variant);
}

/* The repeats (>= 1) any file holds for point p. */
static int repeats_of(const struct whycsv *w, const struct whypoint *p, int *rep)
{
    int n = 0;
#define SCAN(arr, cnt)                                                                             \
    for (size_t i = 0; i < w->cnt; i++) {                                                          \
        const struct why_key *k = &w->arr[i].k;                                                    \
        if (k->repeat < 1 || !same(k, p))                                                          \
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

static int cls_cat(const char *cls)
{
    if (!strcmp(cls, "cpu"))
        return WP_ONCPU;
    if (!strcmp(cls, "lock"))
        return WP_LOCK;
    if (!strcmp(cls, "io"))
        return WP_IO;
    if (!strcmp(cls, "client"))
        return WP_CLIENT;
    if (!strcmp(cls, "table")) /* MariaDB's time in row calls: CPU too, no wait */
        return -1;
    return WP_OTHER;
}

static void fill(const struct whycsv *w, struct whypoint *p)
{
    int rep[MAXREP], nr = repeats_of(w, p, rep);
    p->repeats = nr;
    double v[WP_N][MAXREP] = {{0}};
    int has_cpu = 0, has_wait = 0, has_sched = 0;
    double sv[6][MAXREP] = {{0}};
    for (int r = 0; r < nr; r++) {
        for (size_t i = 0; i < w->ncpu; i++) {
            const struct why_cpu *c = &w->cpu[i];
            if (c->k.repeat != rep[r] || !same(&c->k, p))
                continue;
            has_cpu = 1;
            v[WP_USER][r] += c->us_txn[WHY_USER];
            v[WP_KERNEL][r] += c->us_txn[WHY_SYSTEM];
            v[WP_IRQ][r] += c->us_txn[WHY_IRQ] + c->us_txn[WHY_SOFTIRQ];
            v[WP_IDLE][r] += c->us_txn[WHY_IDLE] + c->us_txn[WHY_IOWAIT];
            v[WP_STEAL][r] += c->us_txn[WHY_STEAL];
        }
        for (size_t i = 0; i < w->nwait; i++) {
            const struct why_wait *x = &w->wait[i];
            if (x->k.repeat != rep[r] || !same(&x->k, p))
                continue;
            has_wait = 1;
            if (cls_cat(x->cls) >= 0)
                v[cls_cat(x->cls)][r] += x->us_txn;
        }
        for (size_t i = 0; i < w->nsched; i++) {
            const struct why_sched *s = &w->sched[i];
            if (s->k.repeat != rep[r] || !same(&s->k, p))
                continue;
            has_sched = 1;
            sv[0][r] = s->voluntary_txn, sv[1][r] = s->involuntary_txn;
            sv[2][r] = s->migrations_txn, sv[3][r] = s->runq_us_txn;
            sv[4][r] = s->user_us_txn, sv[5][r] = s->system_us_txn;
        }
    }
    for (int c = 0; c < WP_N; c++) {
        int cpu_cat = c <= WP_STEAL;
        p->cat[c] = (cpu_cat ? has_cpu : has_wait) ? stats_median(v[c], (size_t)nr) : -1;
    }
    if (has_sched) { /* the server's own CPU, not whoever shared its CPUs */
        p->cat[WP_USER] = stats_median(sv[4], (size_t)nr);
        p->cat[WP_KERNEL] = stats_median(sv[5], (size_t)nr);
    }
    p->voluntary_txn = has_sched ? stats_median(sv[0], (size_t)nr) : -1;
    p->involuntary_txn = has_sched ? stats_median(sv[1], (size_t)nr) : -1;
    p->migrations_txn = has_sched ? stats_median(sv[2], (size_t)nr) : -1;
    p->runq_us_txn = has_sched ? stats_median(sv[3], (size_t)nr) : -1;
    /* events: the median of each over the repeats, 0 where a repeat lacks it */
    p->nev = 0;
    struct whypoint_ev all[256];
    int nall = 0;
    for (size_t i = 0; i < w->nwait; i++) {
        const struct why_wait *x = &w->wait[i];
        if (x->k.repeat < 1 || !same(&x->k, p))
            continue;
        int j = 0;
        while (j < nall && strcmp(all[j].event, x->event) != 0)
            j++;
        if (j < nall || nall == 256)
            continue;
        snprintf(all[nall].event, sizeof all[nall].event, "%s", x->event);
        snprintf(all[nall].cls, sizeof all[nall].cls, "%s", x->cls);
        double per[MAXREP] = {0};
        for (size_t m = 0; m < w->nwait; m++) {
            const struct why_wait *y = &w->wait[m];
            if (!same(&y->k, p) || strcmp(y->event, x->event) != 0)
                continue;
            for (int r = 0; r < nr; r++)
                if (rep[r] == y->k.repeat)
                    per[r] += y->us_txn;
        }
        all[nall++].us = stats_median(per, (size_t)nr);
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

size_t whypoint_build(const struct whycsv *w, struct whypoint **out)
{
    size_t n = 0, cap = 0;
    struct whypoint *p = NULL;
#define ADD(arr, cnt)                                                                              \
    for (size_t i = 0; i < w->cnt; i++) {                                                          \
        const struct why_key *k = &w->arr[i].k;                                                    \
        if (k->repeat < 1 || whypoint_find(p, n, k->variant, k->cpus, k->threads))                 \
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
        fill(w, &p[i]);
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
    for (int i = 0; i < p->nev; i++)
        if (!strcmp(p->ev[i].event, event))
            return p->ev[i].us;
    return 0;
}
