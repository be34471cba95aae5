/*
 * evidence.c - the why files of every results directory, read once, and
 * each curve's points with what explains them, for limit.c and the
 * verdicts: the why point, the time budget, the held CPUs' idle share, the
 * client's CPU use, a profile's kernel share, and the kernel baseline's
 * efficiency on the paths that grew.
 *
 * The one idea: a point carries only what was measured at it; every
 * missing figure is NAN, so a verdict tests only what it can.
 *
 * Never prints; an unreadable why file is a warning in the curves' log.
 */
#include "analysis/evidence.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/cpulist.h"
#include "stats/stats.h"

/* ---- reading ---- */

static double meta_rate(const struct curves_dir *d)
{
    json_t *o = d->meta ? json_object_get(d->meta, "options") : NULL;
    json_t *r = o ? json_object_get(o, "rate") : NULL;
    double v = json_is_number(r) ? json_number_value(r) : 0;
    if (json_is_string(r))
        v = atof(json_string_value(r));
    return v > 0 ? v : 0;
}

void evidence_load(struct evidence *ev, const struct curves *cv)
{
    ev->n = cv->ndirs;
    ev->d = xcalloc(ev->n + 1, sizeof *ev->d);
    for (size_t i = 0; i < cv->ndirs; i++) {
        struct evidence_dir *e = &ev->d[i];
        char err[700], path[700];
        e->rate = meta_rate(&cv->dirs[i]);
        snprintf(path, sizeof path, "%s/micro.csv", cv->dirs[i].path);
        if (access(path, F_OK) == 0 && compare_load(&e->micro, path, err, sizeof err) < 0) {
            compare_sets_free(&e->micro);
            memset(&e->micro, 0, sizeof e->micro); /* the plot's loader has said why */
        }
        if (whycsv_read(cv->dirs[i].path, &e->w, err, sizeof err) < 0) {
            sbuf_printf(&cv->log->warn, "why files left out: %s\n", err);
            whycsv_free(&e->w);
            memset(&e->w, 0, sizeof e->w);
            continue;
        }
        e->np = whypoint_build(&e->w, &cv->dirs[i].rs, &e->pts);
    }
}

void evidence_free(struct evidence *ev)
{
    for (size_t i = 0; i < ev->n; i++) {
        whycsv_free(&ev->d[i].w);
        free(ev->d[i].pts);
        compare_sets_free(&ev->d[i].micro);
    }
    free(ev->d);
    memset(ev, 0, sizeof *ev);
}

const struct whypoint *evidence_point(const struct evidence *ev, const struct curves *cv, size_t ci,
                                      double threads)
{
    const struct curve *c = &cv->c[ci];
    if ((size_t)c->dir >= ev->n)
        return NULL;
    const struct evidence_dir *e = &ev->d[c->dir];
    return whypoint_find(e->pts, e->np, c->variant, c->cpus, (int)threads);
}

/* ---- the kernel baseline's tests of what grew ---- */

static const struct {
    const char *pat, *tests;
} kmap[] = {
    {"futex", "futex1,futex2,futex3,futex4,pthread_mutex1,pthread_mutex2,posix_semaphore1"},
    {"open", "open1,open2,open3"},
    {"path_", "open1,open2,open3,stat1,stat2"},
    {"lookup", "open1,open2,open3,stat1,stat2"},
    {"pipe", "pipe1"},
    {"fault", "page_fault1,page_fault2,page_fault3,page_fault4"},
    {"handle_mm", "page_fault1,page_fault2,page_fault3,page_fault4"},
    {"posix_lock", "lock1,lock2"},
    {"fcntl", "lock1,lock2"},
    {"locks_", "lock1,lock2"},
    {"schedule", "context_switch1,pipe1,sched_yield"},
    {"wake_up", "context_switch1,pipe1"},
    {"finish_task_switch", "context_switch1,pipe1"},
    {"getppid", "getppid1"},
    {"syscall", "getppid1"},
    {"brk", "brk1,brk2"},
    {"mmap", "mmap1,mmap2"},
    {"munmap", "mmap1,mmap2,tlb_flush1"},
    {"tlb", "tlb_flush1,tlb_flush2,tlb_flush3"},
    {"unix_stream", "unix1"},
    {"poll", "poll1,poll2"},
    {"select", "select1,select2,select3"},
    {"ext4", "fs,fallocate1"},
    {"jbd2", "fs"},
    {"fsync", "fs"},
    {"unlink", "unlink1,unlink2,fs"},
    {"eventfd", "eventfd1"},
};

static int add_tests(const char *list, char (*out)[32], int n, int max)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *sv = NULL, *t = strtok_r(copy, ",", &sv); t; t = strtok_r(NULL, ",", &sv)) {
        int have = 0;
        for (int i = 0; i < n; i++)
            have |= !strcmp(out[i], t);
        if (!have && n < max)
            snprintf(out[n++], 32, "%s", t);
    }
    return n;
}

int evidence_kernel_tests(const struct whypoint *a, const struct whypoint *b, char (*kfn)[128],
                          int nk, char (*out)[32], int max)
{
    int n = 0;
    if (!isnan(a->cat[WP_LOCK]) && b->cat[WP_LOCK] > 1.2 * a->cat[WP_LOCK] && b->cat[WP_LOCK] >= 1)
        n = add_tests(kmap[0].tests, out, n, max); /* lock waits sleep on futexes */
    if (!isnan(a->cat[WP_IO]) && b->cat[WP_IO] > 1.2 * a->cat[WP_IO] && b->cat[WP_IO] >= 1)
        n = add_tests("fs", out, n, max);
    for (int i = 0; i < nk; i++)
        for (size_t m = 0; m < sizeof kmap / sizeof kmap[0]; m++)
            if (strstr(kfn[i], kmap[m].pat))
                n = add_tests(kmap[m].tests, out, n, max);
    return n;
}

int evidence_series_is(const struct curve_kernel *mc, const char *test, int cpus)
{
    int fs = !strcmp(test, "fs") && !strncmp(mc->test, "fs ", 3);
    return mc->cpus == cpus && mc->k >= 2 && (fs || !strcmp(mc->test, test));
}

/* The worst efficiency (speedup over tasks, at the most tasks) among the
 * baseline tests of what grew from a to b, at cpus; NAN when none ran. */
static double kernel_base(const struct curves *cv, int cpus, const struct whypoint *a,
                          const struct whypoint *b, char *test, size_t tlen, double *tasks)
{
    char tests[32][32];
    int nt = a && b ? evidence_kernel_tests(a, b, NULL, 0, tests, 32) : 0;
    double worst = NAN;
    for (int i = 0; i < nt; i++)
        for (size_t m = 0; m < cv->nmc; m++) {
            const struct curve_kernel *mc = &cv->mc[m];
            if (!evidence_series_is(mc, tests[i], cpus))
                continue;
            double t = mc->n[mc->k - 1], e = stats_speedup(mc->n, mc->x, mc->k - 1) / t;
            if (isnan(worst) || e < worst) {
                worst = e, *tasks = t;
                snprintf(test, tlen, "%s", mc->test);
            }
        }
    return worst;
}

/* ---- a curve's points ---- */

/* The client's CPU use and sharing over the repeats of a point. */
static void client_of(const struct curves_dir *d, const struct curve *c, double threads,
                      struct limit_point *p)
{
    double busy[256], stmts[256];
    size_t n = 0, ns = 0;
    for (size_t i = 0; i < d->rs.n && n < 256; i++) {
        const struct result_row *r = &d->rs.rows[i];
        if (r->cpus != c->cpus || r->threads != (int)threads || strcmp(r->variant, c->variant) ||
            strcmp(r->engine, c->engine) || strcmp(r->workload, c->workload))
            continue;
        p->shared |= r->shared_cpus;
        if (r->tps > 0 && r->qps > 0 && ns < 256)
            stmts[ns++] = r->qps / r->tps;
        int ncli = cpulist_text_count(r->client_cpus);
        if (ncli > 0 && r->time_s > 0 && r->client_cpu_s > 0)
            busy[n++] = r->client_cpu_s / (r->time_s * ncli);
    }
    p->client_busy = n ? stats_median(busy, n) : NAN;
    p->stmts_txn = ns ? stats_median(stmts, ns) : NAN;
}

/* A profile's share of samples in the kernel at a point (any profiled run). */
static double kernel_share(const struct evidence_dir *e, const struct curve *c, double threads)
{
    double s = 0, k = 0;
    for (size_t i = 0; i < e->w.nprof; i++) {
        const struct why_prof *p = &e->w.prof[i];
        if (p->k.cpus == c->cpus && p->k.threads == (int)threads &&
            !strcmp(p->k.variant, c->variant))
            s += p->samples, k += p->kernel_samples;
    }
    return s > 0 ? k / s : NAN;
}

/* The held CPUs' idle share (idle + iowait, %) at a point, from
 * cpusplit.csv: results.csv's idle_pct is the whole machine's, which beside a
 * client on CPUs of its own is not the server's. NAN: not measured. */
static double held_idle(const struct whypoint *w)
{
    if (!w || isnan(w->cat[WP_IDLE]) || isnan(w->held_busy_us))
        return NAN;
    double all = w->held_busy_us + w->cat[WP_IDLE];
    if (!isnan(w->cat[WP_IRQ]))
        all += w->cat[WP_IRQ];
    if (!isnan(w->cat[WP_STEAL]))
        all += w->cat[WP_STEAL];
    return all > 0 ? 100.0 * w->cat[WP_IDLE] / all : NAN;
}

/* Whether the curve's server was held to every CPU the machine had online
 * (meta.json's cpus_online): then the machine's idle share is the held CPUs'. */
static int held_all(const struct curves_dir *d, const struct curve *c)
{
    json_t *on = d->meta ? json_object_get(d->meta, "cpus_online") : NULL;
    int online = json_is_string(on) ? cpulist_text_count(json_string_value(on)) : 0;
    for (size_t i = 0; i < d->rs.n; i++) {
        const struct result_row *r = &d->rs.rows[i];
        if (r->cpus == c->cpus && !strcmp(r->variant, c->variant))
            return online > 0 && cpulist_text_count(r->server_cpus) == online;
    }
    return 0;
}

void evidence_curve(const struct evidence *ev, const struct curves *cv, size_t ci,
                    struct limit_curve *lc)
{
    const struct curve *c = &cv->c[ci];
    const struct evidence_dir *e = &ev->d[c->dir];
    memset(lc, 0, sizeof *lc);
    lc->c = c;
    lc->engine = c->engine;
    lc->rate = e->rate;
    for (size_t t = 0; t < c->k; t++) {
        struct limit_point *p = &lc->pt[t];
        p->threads = c->n[t];
        p->tps = c->x[t];
        p->repeats = (int)c->tp[t].n;
        p->spread = c->tp[t].mean > 0 ? c->tp[t].sd / c->tp[t].mean : NAN;
        p->w = evidence_point(ev, cv, ci, c->n[t]);
        p->idle = held_idle(p->w);
        if (isnan(p->idle) && c->idle[t] >= 0 && held_all(&cv->dirs[c->dir], c))
            p->idle = c->idle[t];
        budget_of(p->w, c->engine, c->n[t], c->x[t], &p->bud);
        client_of(&cv->dirs[c->dir], c, c->n[t], p);
        p->kernel_share = kernel_share(e, c, c->n[t]);
        p->kernel_base = NAN;
        if (t > 0)
            p->kernel_base = kernel_base(cv, c->cpus, lc->pt[t - 1].w, p->w, p->kernel_base_test,
                                         sizeof p->kernel_base_test, &p->kernel_base_tasks);
    }
}
