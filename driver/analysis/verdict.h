/*
 * verdict.h - what the results conclude, as one value: for every curve,
 * where and why it stops scaling (limit.h); for every later directory
 * against the first, point by point and figure by figure, whether B is
 * better, worse, the same within a threshold, or not decided, with the
 * change's interval, its q-value over the whole grid (Benjamini-Hochberg)
 * and the smallest change the noise could have shown; curve-level figures
 * with bootstrap intervals; for every point found better or worse, what in
 * the why figures changed most; and the gate a CI job reads.
 *
 * The page, the plain-text summary, verdict.json and the exit status of
 * `dbscale compare` all render this value; none computes a figure of its
 * own. docs/verdicts.md documents every class and the figures deciding it.
 */
#ifndef DBSCALE_VERDICT_H
#define DBSCALE_VERDICT_H

#include <stddef.h>

#include "analysis/curves.h"
#include "analysis/evidence.h"
#include "analysis/kverdict.h"
#include "analysis/limit.h"
#include "stats/boot.h"
#include "stats/classify.h"
#include "stats/effect.h"
#include "stats/pooled.h"

/* The figures compared, with the direction that is better. */
enum verdict_fig { VF_TPS, VF_P95, VF_CLIENT_CPU, VF_SERVER_CPU, VF_N };

struct verdict_opt {
    double delta;  /* a change smaller than this is "the same" (0.05 = 5%) */
    double fdr;    /* false-discovery target over the grid (0.05) */
    double conf;   /* intervals' level (0.95) */
    size_t boot;   /* bootstrap resamples for curve figures (1000) */
    int moderate;  /* borrow the grid's noise where it is even (stats/moderate.h) */
    uint64_t seed; /* the bootstrap's seed: the same results give the same page */
};

/* One point of one figure, B against A. */
struct verdict_point {
    int pair;   /* index into verdict.pairs */
    int ca, cb; /* the curves (indexes into the curves) */
    double threads;
    enum verdict_fig fig;
    double a_med, b_med; /* medians over repeats */
    int dropped;         /* disturbed or empty repeats left out, both sides */
    struct stats_effect e;
    struct stats_verdict v; /* class, reason, q, repeats that would decide it */
};

/* What changed most in the why figures at a point found better or worse. */
struct verdict_change {
    char what[96]; /* "lock waits", "Lock:transactionid", "voluntary switches" */
    double a, b;   /* per transaction, A and B */
    const char *unit;
};

#define VERDICT_CHANGES 5

struct verdict_explain {
    int point; /* index into verdict.pts (a TPS point) */
    struct verdict_change ch[VERDICT_CHANGES];
    int nch;
    int profiles;        /* both sides have a profile at the point */
    char kernel[160];    /* the kernel baseline's change at that CPU count, or "" */
    int kernel_explains; /* the baseline moved as much as the database, same way */
};

/* A curve of B against its match in A. */
struct verdict_pair {
    int da, db;                           /* directories */
    int ca, cb;                           /* curves */
    struct stats_interval peak_a, peak_b; /* peak tps (bootstrap over repeats) */
    struct stats_interval knee_a, knee_b; /* knee thread counts */
    struct stats_interval peak_ratio;     /* peak(B) / peak(A) - 1 */
    size_t first, n;                      /* its points in verdict.pts */
    size_t better, worse, same, undecided;
};

/* A directory's curve against its fewest-CPUs curve: peak scaling over CPUs. */
struct verdict_scaling {
    int c, base;                 /* curves */
    struct stats_interval ratio; /* peak(c) / peak(base) - 1 */
    double eff_lo, eff, eff_hi;  /* (1 + ratio) / (cpus / base cpus) */
};

enum verdict_gate {
    VG_PASS,         /* compared, nothing worse */
    VG_REGRESSION,   /* at least one point worse */
    VG_INCONCLUSIVE, /* nothing worse, but points undecided or on one side only */
    VG_INCOMPARABLE, /* nothing to compare: no shared point, another workload */
    VG_NONE,         /* one directory: no comparison asked */
};

/* The directories as kernel variants (a kernels study's, or results with a
 * kernel.json): their facts, the relative-% tables over boots, and the SMP
 * write-up's two sentences as values. on 0: no directory is a kernel
 * variant. */
struct verdict_kernels {
    int on;
    struct kvariants kv;
    struct ktable db, kt; /* database points, kernel tests (built with two variants or more) */
    struct kverdict smp;
};

struct verdict {
    struct verdict_opt opt;
    struct evidence ev;
    struct verdict_kernels k;
    struct limit *lim; /* every curve's, in curve order */
    size_t nlim;
    struct verdict_scaling *sc;
    size_t nsc;
    struct verdict_pair *pairs;
    size_t npairs;
    struct verdict_point *pts;
    size_t npts;
    struct verdict_explain *ex;
    size_t nex;
    size_t tested;         /* points x figures with a test */
    size_t one_side;       /* points measured on one side only */
    size_t dropped;        /* levels left out: disturbed, or nothing completed */
    char one_side_eg[160]; /* one of them, named */
    enum verdict_gate gate;
    char gate_why[256];
};

/* Defaults: delta 5%, FDR 5%, 95% intervals, 1000 resamples, seed 1. */
void verdict_opt_default(struct verdict_opt *o);
/* Everything the curves (built: curves_build) conclude. Reads the why
 * files of every directory. */
void verdict_build(const struct curves *cv, const struct verdict_opt *o, struct verdict *v);
void verdict_free(struct verdict *v);

/* "tps", "p95 latency", "client CPU/txn", "server CPU/txn" and units */
const char *verdict_fig_name(enum verdict_fig f);
const char *verdict_fig_unit(enum verdict_fig f);
/* "pass", "regression", "inconclusive", "incomparable", "none" */
const char *verdict_gate_name(enum verdict_gate g);

#endif
