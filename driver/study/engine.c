/*
 * engine.c - running a study: the planned rounds, then the target's.
 *
 * The one idea: the engine owns the order and the record, a backend owns
 * how one run runs. Every run gets its start time before it starts and the
 * record is rewritten after it ends, so study.json always says what ran
 * when, whichever backend ran it; a target's rounds are decided from the
 * variants' own results.csv, the same rows the page and compare read.
 *
 * It never prints (the verb's callbacks do) and never decides an exit
 * code; it reads results, never writes them (the command does).
 */
#include "study/engine.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/signals.h"
#include "core/util.h"
#include "results/results.h"
#include "study/record.h"

void study_engine_plan(struct study_engine *e)
{
    free(e->runs);
    e->runs = study_plan_rounds(e->axes, e->naxes, e->v, e->nv, e->rounds, &e->nruns);
    e->planned = e->nruns;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void iso(double t, char *buf, size_t len)
{
    time_t s = (time_t)t;
    struct tm tm;
    gmtime_r(&s, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static void note(struct study_engine *e, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void note(struct study_engine *e, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (e->on_note)
        e->on_note(e, msg, e->cb_arg);
}

int study_engine_words(struct study_engine *e, int i, char ***words)
{
    static char *w[1024];
    static char cpus[96], threads[288];
    const struct study_run *u = &e->runs[i];
    int n = 0;
    for (int k = 0; k < e->ncmd && n < 1000; k++)
        w[n++] = e->cmd[k];
    for (int k = 0; k < e->ncommon && n < 1000; k++)
        w[n++] = (char *)e->common[k];
    for (int a = 0; a < e->naxes; a++) {
        const struct study_value *val = &e->axes[a].v[e->v[u->vi].value[a]];
        for (int k = 0; k < val->nwords && n < 1000; k++)
            w[n++] = val->words[k];
    }
    if (u->only_cpus[0]) { /* the last --cpus and --threads are the sweep's */
        snprintf(cpus, sizeof cpus, "--cpus=%s", u->only_cpus);
        snprintf(threads, sizeof threads, "--threads=%s", u->only_threads);
        w[n++] = cpus;
        w[n++] = threads;
    }
    w[n] = NULL;
    *words = w;
    return n;
}

/* Is run i its variant's first? */
static int first_of_variant(const struct study_engine *e, int i)
{
    for (int j = 0; j < i; j++)
        if (e->runs[j].vi == e->runs[i].vi)
            return 0;
    return 1;
}

static void record(struct study_engine *e)
{
    char err[1200];
    if (study_record_write(e, err, sizeof err) < 0)
        note(e, "%s", err);
    if (e->be.record && e->be.record(e->be.arg, e, err, sizeof err) < 0)
        note(e, "%s", err);
}

/* Run i. 2 when its command was refused and it is the study's first. */
static int run_one(struct study_engine *e, int i, int *failed)
{
    struct study_run *u = &e->runs[i];
    u->t_start = now_s();
    iso(u->t_start, u->started, sizeof u->started);
    if (e->on_start)
        e->on_start(e, i, e->cb_arg);
    char **w;
    int n = study_engine_words(e, i, &w);
    if (e->be.run(e->be.arg, u, w, n, !first_of_variant(e, i), e->echo) < 0 &&
        u->status == RUN_FAILED)
        (*failed)++;
    if (e->on_end)
        e->on_end(e, i, e->cb_arg);
    record(e);
    return i == 0 && u->exit_code == 2 ? 2 : 0;
}

/* Every variant's points judged against the target, from its results. */
static void judge(struct study_engine *e)
{
    free(e->pts);
    e->pts = NULL;
    e->npts = 0;
    for (int vi = 0; vi < e->nv; vi++) {
        char dir[1200], err[1024];
        struct result_set rs;
        snprintf(dir, sizeof dir, "%s/%s", e->out, e->v[vi].name);
        if (results_read(dir, &rs, err, sizeof err) < 0) {
            note(e, "target: %s: no results to judge (%s)", e->v[vi].name, err);
            continue;
        }
        study_target_points(rs.rows, rs.n, vi, &e->target, &e->pts, &e->npts);
        results_free(&rs);
    }
}

/* The seconds the runs from..to are expected to take: each its variant's
 * mean so far (the study's mean for a variant with none). */
static double expected_s(const struct study_engine *e, int from, int to)
{
    double all = 0, est = 0;
    int nall = 0;
    for (int j = 0; j < from; j++)
        if (e->runs[j].status == RUN_OK)
            all += e->runs[j].seconds, nall++;
    for (int i = from; i < to; i++) {
        double s = 0;
        int k = 0;
        for (int j = 0; j < from; j++)
            if (e->runs[j].vi == e->runs[i].vi && e->runs[j].status == RUN_OK)
                s += e->runs[j].seconds, k++;
        est += k ? s / k : nall ? all / nall : 0;
    }
    return est;
}

/* The target's rounds; 0, or as study_engine_run. */
static int target_rounds(struct study_engine *e, int *failed)
{
    const struct study_target *t = &e->target;
    int round = e->rounds;
    for (;;) {
        judge(e);
        int unmet = 0, nwant = 0;
        struct study_want *want = xcalloc((size_t)(e->npts ? e->npts : 1), sizeof *want);
        for (int p = 0; p < e->npts; p++) {
            const struct study_point *q = &e->pts[p];
            unmet += !q->met;
            if (!q->met && q->n < t->max_repeats)
                want[nwant++] = (struct study_want){q->vi, q->cpus, q->threads};
        }
        if (!unmet) {
            free(want);
            e->target_met = 1;
            snprintf(e->target_end, sizeof e->target_end,
                     "met: every point's 95%% interval of the median within +-%g%%", 100 * t->ci);
            note(e, "target: %s", e->target_end);
            return 0;
        }
        if (!nwant) {
            free(want);
            snprintf(e->target_end, sizeof e->target_end,
                     "budget spent: %d point(s) still wider than +-%g%% after %d repeats "
                     "(--max-repeats)",
                     unmet, 100 * t->ci, t->max_repeats);
            note(e, "target: %s", e->target_end);
            return 0;
        }
        int from = e->nruns;
        study_plan_more(e->axes, e->naxes, e->v, e->nv, round, want, nwant, &e->runs, &e->nruns);
        free(want);
        /* the runs' own seconds are a floor of the wall time they took */
        double ran = 0;
        for (int j = 0; j < from; j++)
            ran += e->runs[j].seconds;
        double spent = fmax(now_s() - e->t0, ran), est = expected_s(e, from, e->nruns);
        if (t->max_time_s > 0 && spent + est > t->max_time_s) {
            e->nruns = from; /* not started: the budget would not hold it */
            snprintf(e->target_end, sizeof e->target_end,
                     "budget spent: %d point(s) still wider than +-%g%%; another round (about "
                     "%.0f s) would end past --max-time=%g s (%.0f s spent)",
                     unmet, 100 * t->ci, est, t->max_time_s, spent);
            note(e, "target: %s", e->target_end);
            return 0;
        }
        e->added++;
        note(e, "target: %d point(s) wider than +-%g%% with repeats left: round %d adds %d run(s)",
             nwant, 100 * t->ci, round + 1, e->nruns - from);
        record(e); /* the added runs, pending, before the first starts */
        for (int i = from; i < e->nruns && !signals_caught(); i++)
            run_one(e, i, failed);
        if (signals_caught())
            return -1;
        round++;
    }
}

int study_engine_run(struct study_engine *e)
{
    int failed = 0;
    e->t0 = now_s();
    iso(e->t0, e->started, sizeof e->started);
    record(e);
    for (int i = 0; i < e->nruns && !signals_caught(); i++)
        if (run_one(e, i, &failed) == 2) {
            iso(now_s(), e->ended, sizeof e->ended);
            record(e);
            return 2;
        }
    int rc = signals_caught() ? -1 : 0;
    if (rc == 0 && e->target.ci > 0)
        rc = target_rounds(e, &failed);
    else if (e->target.ci > 0)
        judge(e); /* what stands when it was stopped */
    iso(now_s(), e->ended, sizeof e->ended);
    record(e);
    return rc < 0 || signals_caught() ? -1 : failed ? 1 : 0;
}

void study_engine_free(struct study_engine *e)
{
    free(e->runs);
    free(e->pts);
    e->runs = NULL;
    e->pts = NULL;
    e->nruns = e->npts = 0;
}
