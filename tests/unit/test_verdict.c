/*
 * test_verdict.c - the verdict on synthetic results directories with known
 * answers: a planted 10% regression at 3% noise is found and the gate says
 * regression; the reverse is an improvement and the gate passes; A/A grids
 * mark nothing; two sweeps at different CPU counts share no point and the
 * gate fails closed; a disturbed level or a point on one side only is never
 * read as "no change"; and each curve-limit class comes out of figures made
 * to show it, with what it is not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/curves.h"
#include "analysis/evidence.h"
#include "analysis/limit.h"
#include "analysis/verdict.h"
#include "stats/prng.h"

static struct stats_rng rng;

/* A results directory: threads {1,2,4,8}, `repeats` repeats, throughput
 * scale x a concave curve, lognormal noise of `cv`; cpus; p95 by Little. */
static void sweep(const char *dir, int cpus, int repeats, double scale, double cv,
                  int disturb_threads)
{
    char path[600];
    snprintf(path, sizeof path, "%s/results.csv", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "engine,workload,variant,cpus,threads,repeat,time_s,tps,lat_p95_ms,"
               "client_cpu_per_txn_us,server_cpu_s,idle_pct,disturbed,disturbed_why\n");
    static const int th[] = {1, 2, 4, 8};
    for (int t = 0; t < 4; t++)
        for (int r = 1; r <= repeats; r++) {
            double base = 1000 * th[t] / (1 + 0.1 * (th[t] - 1));
            double tps = scale * base * exp(cv * stats_rng_normal(&rng));
            double p95 = th[t] / tps * 2000 * exp(cv * stats_rng_normal(&rng));
            double cli = 100 * exp(cv * stats_rng_normal(&rng));
            double srv = tps * 10 * 300e-6 * exp(cv * stats_rng_normal(&rng));
            int dist = th[t] == disturb_threads && r == 1;
            fprintf(f, "pgsql,oltp_read_only,smp,%d,%d,%d,10,%.3f,%.4f,%.3f,%.4f,30,%d,%s\n", cpus,
                    th[t], r, tps, p95, cli, srv, dist, dist ? "stall 1.0s" : "");
        }
    fclose(f);
}

static char tmp[] = "/tmp/test-verdict-XXXXXX";

static void dir_path(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", tmp, name);
}

static void make_dir(const char *name, int cpus, int repeats, double scale, double cv, int dist)
{
    char d[600];
    dir_path(d, sizeof d, name);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", d, d);
    assert_int_equal(system(cmd), 0);
    sweep(d, cpus, repeats, scale, cv, dist);
}

/* Directories under tmp, loaded and built into cv. */
static void load(char *const *names, size_t n, struct curves *cv, struct curves_log *log)
{
    char pa[4][600];
    char *paths[4];
    assert_true(n <= 4);
    for (size_t i = 0; i < n; i++) {
        dir_path(pa[i], sizeof pa[i], names[i]);
        paths[i] = pa[i];
    }
    memset(cv, 0, sizeof *cv);
    memset(log, 0, sizeof *log);
    cv->log = log;
    assert_int_equal(curves_load(cv, paths, n), 0);
    curves_build(cv);
}

/* The verdict of every later directory against the first (under tmp). */
static void judge_dirs(char *const *names, size_t n, struct curves *cv, struct curves_log *log,
                       struct verdict *v)
{
    load(names, n, cv, log);
    struct verdict_opt o;
    verdict_opt_default(&o);
    o.boot = 200; /* the curve figures are not what these tests look at */
    verdict_build(cv, &o, v);
}

/* The verdict of B against A (directories under tmp). */
static void judge(const char *a, const char *b, struct curves *cv, struct curves_log *log,
                  struct verdict *v)
{
    char *names[2] = {(char *)a, (char *)b};
    judge_dirs(names, 2, cv, log, v);
}

static void done(struct curves *cv, struct curves_log *log, struct verdict *v)
{
    verdict_free(v);
    curves_free(cv);
    sbuf_free(&log->out);
    sbuf_free(&log->warn);
}

static size_t count(const struct verdict *v, enum verdict_fig f, enum stats_class c)
{
    size_t n = 0;
    for (size_t i = 0; i < v->npts; i++)
        n += v->pts[i].fig == f && v->pts[i].v.cls == c;
    return n;
}

static int setup(void **st)
{
    (void)st;
    stats_rng_seed(&rng, 20261206);
    return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **st)
{
    (void)st;
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    return system(cmd) == 0 ? 0 : -1;
}

/* A planted -10% at 3% noise and 5 repeats a side: found at the points,
 * the gate says regression; reversed, an improvement and the gate passes
 * with --inconclusive=pass's meaning (nothing worse). */
static void test_regression_found(void **st)
{
    (void)st;
    size_t found = 0, trials = 20, reg = 0, better = 0, alarms = 0;
    for (size_t k = 0; k < trials; k++) {
        make_dir("a", 2, 5, 1.0, 0.03, 0);
        make_dir("b", 2, 5, 0.9, 0.03, 0);
        struct curves cv;
        struct curves_log log;
        struct verdict v;
        judge("a", "b", &cv, &log, &v);
        found += count(&v, VF_TPS, STATS_WORSE);
        reg += v.gate == VG_REGRESSION;
        done(&cv, &log, &v);
        judge("b", "a", &cv, &log, &v);
        better += count(&v, VF_TPS, STATS_BETTER);
        assert_int_equal(count(&v, VF_TPS, STATS_WORSE), 0);
        alarms += v.gate == VG_REGRESSION; /* another figure, by chance, at the FDR */
        done(&cv, &log, &v);
    }
    printf("planted -10%% at 3%% noise, 5 vs 5: %zu of %zu tps points worse, %zu of %zu better "
           "reversed, gate regression %zu of %zu\n",
           found, 4 * trials, better, 4 * trials, reg, trials);
    assert_true(found >= 0.9 * 4 * trials);
    assert_true(better >= 0.9 * 4 * trials);
    assert_int_equal(reg, trials);
    assert_true(alarms <= 3);
}

/* A/A: the same distribution both sides. No more grids marked than the
 * false-discovery rate allows (50 grids of 16 tests; the stats room's own
 * tests run 1000 grids of 48 for the rate itself). */
static void test_aa(void **st)
{
    (void)st;
    size_t marked = 0, grids = 50, alarms = 0;
    for (size_t k = 0; k < grids; k++) {
        make_dir("a", 2, 5, 1.0, 0.03, 0);
        make_dir("b", 2, 5, 1.0, 0.03, 0);
        struct curves cv;
        struct curves_log log;
        struct verdict v;
        judge("a", "b", &cv, &log, &v);
        for (int f = 0; f < VF_N; f++)
            marked += count(&v, (enum verdict_fig)f, STATS_WORSE) +
                      count(&v, (enum verdict_fig)f, STATS_BETTER);
        alarms += v.gate == VG_REGRESSION;
        done(&cv, &log, &v);
    }
    printf("A/A: %zu marks over %zu grids of 16 tests, %zu false alarms of the gate\n", marked,
           grids, alarms);
    /* BH at 5% under no change at all: a grid is marked at all in about 5%
     * of grids (more where the grid's noise is borrowed), so a few of 50 */
    assert_true(alarms <= 5);
    assert_true(marked <= 8);
}

/* Different CPU counts share no point: incomparable, never a pass. */
static void test_incomparable(void **st)
{
    (void)st;
    make_dir("a", 1, 3, 1.0, 0.03, 0);
    make_dir("b", 2, 3, 1.0, 0.03, 0);
    struct curves cv;
    struct curves_log log;
    struct verdict v;
    judge("a", "b", &cv, &log, &v);
    assert_int_equal(v.gate, VG_INCOMPARABLE);
    assert_int_equal(v.npts, 0);
    assert_true(v.one_side > 0);
    assert_non_null(strstr(v.gate_why, "no point measured on both sides"));
    done(&cv, &log, &v);
}

/* A disturbed level is left out and the gate cannot pass. */
static void test_fails_closed(void **st)
{
    (void)st;
    make_dir("a", 2, 5, 1.0, 0.01, 0);
    make_dir("b", 2, 5, 1.0, 0.01, 4);
    struct curves cv;
    struct curves_log log;
    struct verdict v;
    judge("a", "b", &cv, &log, &v);
    assert_int_equal(v.dropped, 1);
    assert_int_equal(v.gate, VG_INCONCLUSIVE);
    assert_non_null(strstr(v.gate_why, "1 level left out"));
    done(&cv, &log, &v);
}

/* Repeats in two boots: the boot is the unit (each boot's median), so a
 * point of 2 boots x 3 repeats a side is 2 vs 2, never 6 vs 6. */
static void test_boots(void **st)
{
    (void)st;
    for (int d = 0; d < 2; d++) {
        char dir[600], path[700];
        dir_path(dir, sizeof dir, d ? "kb" : "ka");
        char cmd[800];
        snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
        assert_int_equal(system(cmd), 0);
        snprintf(path, sizeof path, "%s/results.csv", dir);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fprintf(f, "engine,workload,variant,cpus,threads,repeat,time_s,tps,boot\n");
        for (int b = 0; b < 2; b++)
            for (int r = 1; r <= 3; r++) /* boots differ by 10%, repeats within by 0.1% */
                fprintf(f, "pgsql,oltp_read_only,smp,2,4,%d,10,%.2f,boot-%d-%d\n", b * 3 + r,
                        1000 * (1 + 0.1 * b) * (1 + 0.001 * r), d, b);
        fclose(f);
    }
    struct curves cv;
    struct curves_log log;
    struct verdict v;
    judge("ka", "kb", &cv, &log, &v);
    assert_true(v.npts >= 1);
    assert_int_equal(v.pts[0].fig, VF_TPS);
    assert_int_equal(v.pts[0].e.na, 2);
    assert_int_equal(v.pts[0].e.nb, 2);
    /* the boots' spread, not the repeats': no difference can be shown */
    assert_int_equal(v.pts[0].v.cls, STATS_INCONCLUSIVE);
    done(&cv, &log, &v);
}

/* ---- the limits of one curve, from figures made to show each ---- */

static struct whypoint wps[4];

static void curve4(struct curve *c, const double *tps, int cpus)
{
    memset(c, 0, sizeof *c);
    c->k = 4, c->cpus = cpus;
    snprintf(c->engine, sizeof c->engine, "pgsql");
    for (size_t t = 0; t < 4; t++) {
        c->n[t] = (double)(1 << t);
        c->x[t] = tps[t];
        c->tp[t].n = 3, c->tp[t].mean = tps[t], c->tp[t].sd = 0.02 * tps[t];
    }
    c->peak = 0;
    for (size_t t = 1; t < 4; t++)
        if (c->x[t] > c->x[c->peak])
            c->peak = t;
    c->knee = stats_knee(c->n, c->x, c->k);
}

/* Point t's why: us per transaction by category, idle %, client busy. */
static void point(struct limit_curve *lc, size_t t, double idle, double cpu, double lock, double io,
                  double client, double user, double kern, double busy)
{
    struct whypoint *w = &wps[t];
    memset(w, 0, sizeof *w);
    for (int c = 0; c < WP_N; c++)
        w->cat[c] = 0;
    w->cat[WP_ONCPU] = cpu, w->cat[WP_LOCK] = lock, w->cat[WP_IO] = io;
    w->cat[WP_CLIENT] = client, w->cat[WP_USER] = user, w->cat[WP_KERNEL] = kern;
    w->held_busy_us = user + kern;
    w->runq_us_txn = NAN, w->voluntary_txn = w->involuntary_txn = w->migrations_txn = NAN;
    if (lock > 0) {
        snprintf(w->ev[0].event, sizeof w->ev[0].event, "Lock:transactionid");
        w->ev[0].us = lock, w->nev = 1;
    }
    struct limit_point *p = &lc->pt[t];
    p->threads = lc->c->n[t], p->tps = lc->c->x[t], p->repeats = 3, p->spread = 0.02;
    p->idle = idle, p->w = w, p->client_busy = busy;
    p->kernel_share = p->kernel_base = NAN;
    budget_of(w, "pgsql", p->threads, p->tps, &p->bud);
}

static void limit_of(const double *tps, int cpus, double rate, void (*fill)(struct limit_curve *),
                     struct limit *l, size_t *n)
{
    static struct curve c;
    curve4(&c, tps, cpus);
    struct limit_curve lc = {.c = &c, .engine = "pgsql", .rate = rate};
    fill(&lc);
    *n = limit_find(&lc, 0, l);
}

/* A 1-row update: throughput falls from one thread, lock waits grow to most
 * of a transaction, the CPUs stay ~40% idle. */
static void fill_lock(struct limit_curve *lc)
{
    for (size_t t = 0; t < 4; t++) {
        double total = lc->c->n[t] / lc->c->x[t] * 1e6;
        double lock = t == 0 ? 0 : 0.6 * total;
        point(lc, t, 40, 0.2 * total, lock, 0, total - lock - 0.2 * total, 80, 40, 0.1);
    }
}

/* Point selects on one CPU: idle 0 from 4 threads, user over kernel. */
static void fill_cpu(struct limit_curve *lc)
{
    for (size_t t = 0; t < 4; t++) {
        double total = lc->c->n[t] / lc->c->x[t] * 1e6;
        point(lc, t, t < 1 ? 30 : 1, 0.5 * total, 0, 0, 0.5 * total, 30, 20, 0.2);
    }
}

static void fill_load(struct limit_curve *lc)
{
    for (size_t t = 0; t < 4; t++) {
        double total = lc->c->n[t] / lc->c->x[t] * 1e6;
        point(lc, t, 80, 0.05 * total, 0, 0, 0.95 * total, 30, 20, 0.05);
    }
}

static void fill_none(struct limit_curve *lc)
{
    for (size_t t = 0; t < 4; t++) {
        lc->pt[t].threads = lc->c->n[t], lc->pt[t].tps = lc->c->x[t];
        lc->pt[t].repeats = 3, lc->pt[t].spread = 0.02;
        lc->pt[t].idle = lc->pt[t].client_busy = NAN;
        lc->pt[t].kernel_share = lc->pt[t].kernel_base = NAN;
        budget_of(NULL, "pgsql", 1, 1, &lc->pt[t].bud);
    }
}

/* A sleep after nearly every statement while the client's CPUs are busy and
 * the server's are not, on PostgreSQL (limit_of's engine), whose backends
 * sleep so under every client. */
static void fill_sleepy(struct limit_curve *lc)
{
    for (size_t t = 0; t < 4; t++) {
        double total = lc->c->n[t] / lc->c->x[t] * 1e6;
        point(lc, t, 45, 0.3 * total, 0, 0, 0.3 * total, 30, 20, 0.7);
        wps[t].voluntary_txn = 15;
        lc->pt[t].stmts_txn = 16;
    }
}

/* The same figures on MariaDB: there the client paces the server (limit.c's
 * shaping). */
static void fill_shaped(struct limit_curve *lc)
{
    lc->engine = "mysql";
    fill_sleepy(lc);
}

static void test_limits(void **st)
{
    (void)st;
    struct limit l[2];
    size_t n;
    char s[1024];
    const double falls[4] = {5400, 4000, 2500, 1700};
    limit_of(falls, 2, 0, fill_lock, l, &n);
    assert_true(n >= 1);
    assert_int_equal(l[0].kind, LK_LOCK);
    assert_non_null(strstr(l[0].part, "row locks (Lock:transactionid)"));
    assert_non_null(strstr(l[0].not_, "not CPU (the held CPUs 40% idle)"));
    struct curve c;
    curve4(&c, falls, 2);
    limit_sentence(&l[0], &c, s, sizeof s);
    assert_non_null(strstr(s, "lock-bound"));

    const double flat[4] = {10000, 18000, 19000, 18500};
    limit_of(flat, 1, 0, fill_cpu, l, &n);
    assert_int_equal(l[0].kind, LK_CPU);
    assert_non_null(strstr(l[0].part, "server user CPU"));
    assert_non_null(strstr(l[0].part, "user 60%, kernel 40%"));

    const double capped[4] = {200, 290, 296, 297};
    limit_of(capped, 2, 300, fill_load, l, &n);
    assert_int_equal(l[0].kind, LK_LOAD);

    const double scales[4] = {1000, 2000, 4000, 8000};
    limit_of(scales, 8, 0, fill_none, l, &n);
    assert_int_equal(n, 1);
    assert_int_equal(l[0].kind, LK_SCALES);
    assert_int_equal(l[0].where, LW_END);

    limit_of(flat, 2, 0, fill_shaped, l, &n);
    assert_int_equal(l[0].kind, LK_CLIENT);
    assert_non_null(strstr(l[0].shaping, "slept 15.0 times a transaction of 16.0 statements"));
    assert_non_null(strstr(l[0].shaping, "the client may be shaping the server"));
    /* a PostgreSQL backend sleeps so under every client: no such claim */
    limit_of(flat, 2, 0, fill_sleepy, l, &n);
    assert_string_equal(l[0].shaping, "");
    assert_int_not_equal(l[0].kind, LK_CLIENT);

    /* a knee with nothing measured beside throughput: undecided, said so */
    limit_of(flat, 1, 0, fill_none, l, &n);
    assert_int_equal(l[0].kind, LK_UNDECIDED);
    assert_non_null(strstr(l[0].part, "nothing measured"));
    assert_int_equal(l[0].sure, LS_TENTATIVE);
}

/* One knee per (variant, CPU count), computed once: the curve a sweep reads
 * its knee from (curves_of_rows) is the curve the page draws. */
static void test_one_knee(void **st)
{
    (void)st;
    make_dir("k", 2, 3, 1.0, 0.05, 0);
    char *names[1] = {"k"};
    struct curves_log log;
    struct curves cv;
    load(names, 1, &cv, &log);
    assert_true(cv.nc == 1);
    struct curve c;
    curves_of_rows(cv.dirs[0].rs.rows, cv.dirs[0].rs.n, "smp", 2, &c);
    assert_int_equal(c.k, cv.c[0].k);
    assert_int_equal(c.knee, cv.c[0].knee);
    assert_int_equal(c.peak, cv.c[0].peak);
    for (size_t t = 0; t < c.k; t++)
        assert_true(c.x[t] == cv.c[0].x[t]);
    curves_free(&cv);
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
}

/* The held CPUs' idle share is theirs, not the machine's: a server held to
 * CPU 0 of two, the client on CPU 1. results.csv's idle_pct (the whole
 * machine, 34%) is not read; cpusplit.csv's CPU 0 (0.02 s idle in 1.5 s,
 * 1.33%) is. Without cpusplit.csv the point's idle is not measured (NAN);
 * with the server on every online CPU the machine's share is the held one. */
static void held(const char *name, const char *server_cpus, int split)
{
    char d[600], p[700];
    dir_path(d, sizeof d, name);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", d, d);
    assert_int_equal(system(cmd), 0);
    snprintf(p, sizeof p, "%s/results.csv", d);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f,
            "engine,workload,variant,cpus,threads,repeat,time_s,tps,idle_pct,client_cpus,"
            "server_cpus,shared_cpus\n"
            "pgsql,oltp_point_select,smp,1,4,1,1.5,1000,34,1,%s,0\n",
            server_cpus);
    fclose(f);
    snprintf(p, sizeof p, "%s/meta.json", d);
    f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "{\"cpus_online\": \"0-1\"}\n");
    fclose(f);
    if (!split)
        return;
    snprintf(p, sizeof p, "%s/cpusplit.csv", d);
    f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "variant,cpus,threads,repeat,cpu,user_s,user_us_txn,system_s,system_us_txn,irq_s,"
               "irq_us_txn,softirq_s,softirq_us_txn,iowait_s,iowait_us_txn,steal_s,"
               "steal_us_txn,idle_s,idle_us_txn\n"
               "smp,1,4,1,0,0.5,333.333,0.65,433.333,0,0,0.33,220,0,0,0,0,0.02,13.3333\n");
    fclose(f);
}

static double held_idle_of(const char *name)
{
    char *names[1] = {(char *)name};
    struct curves_log log;
    struct curves cv;
    load(names, 1, &cv, &log);
    assert_true(cv.nc == 1);
    struct evidence ev;
    evidence_load(&ev, &cv);
    struct limit_curve lc;
    evidence_curve(&ev, &cv, 0, &lc);
    double idle = lc.pt[0].idle;
    evidence_free(&ev);
    curves_free(&cv);
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
    return idle;
}

static void test_held_idle(void **st)
{
    (void)st;
    held("h1", "0", 1);
    assert_float_equal(held_idle_of("h1"), 100.0 * 0.02 / 1.5, 0.01);
    held("h2", "0", 0);
    assert_true(isnan(held_idle_of("h2")));
    held("h3", "0-1", 0);
    assert_float_equal(held_idle_of("h3"), 34, 1e-9);
}

/* Several directories are several questions, each answered as `compare A X`
 * would answer it: a later directory's large real change (B, -30%) does not
 * loosen the false-discovery control of an A/A one (C). C's points have the
 * same q-values and classes against A whether B is given beside it or not. */
static void test_questions(void **st)
{
    (void)st;
    make_dir("qa", 2, 3, 1.0, 0.08, 0);
    make_dir("qb", 2, 3, 0.7, 0.08, 0);
    make_dir("qc", 2, 3, 1.0, 0.08, 0);
    char *three[3] = {"qa", "qb", "qc"}, *two[2] = {"qa", "qc"};
    struct curves cv3, cv2;
    struct curves_log log3, log2;
    struct verdict v3, v2;
    judge_dirs(three, 3, &cv3, &log3, &v3);
    judge_dirs(two, 2, &cv2, &log2, &v2);
    assert_true(count(&v3, VF_TPS, STATS_WORSE) >= 1); /* B's change is found */
    size_t seen = 0;
    for (size_t i = 0; i < v3.npts; i++) {
        const struct verdict_point *a = &v3.pts[i];
        if (v3.pairs[a->pair].db != 2)
            continue;
        for (size_t j = 0; j < v2.npts; j++) {
            const struct verdict_point *b = &v2.pts[j];
            if (b->fig == a->fig && b->threads == a->threads) {
                assert_true(a->v.cls == b->v.cls);
                assert_true((isnan(a->v.q) && isnan(b->v.q)) || fabs(a->v.q - b->v.q) < 1e-12);
                seen++;
            }
        }
    }
    assert_true(seen >= 16); /* 4 thread counts x 4 figures */
    done(&cv3, &log3, &v3);
    done(&cv2, &log2, &v2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regression_found),
        cmocka_unit_test(test_aa),
        cmocka_unit_test(test_incomparable),
        cmocka_unit_test(test_fails_closed),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_one_knee),
        cmocka_unit_test(test_boots),
        cmocka_unit_test(test_held_idle),
        cmocka_unit_test(test_questions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
