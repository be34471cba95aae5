/*
 * limit.h - why one curve stops scaling: at its knee, and after its peak
 * where it falls, what limits it (the CPUs, locks, I/O, the client or the
 * offered load, round trips, the kernel), from the figures that decide it,
 * with how sure that is and what it is not. Where the figures do not
 * separate two causes, both are named.
 *
 * Each class and the figures that decide it are documented in
 * docs/verdicts.md; the thresholds are the constants of limit.c.
 */
#ifndef DBSCALE_LIMIT_H
#define DBSCALE_LIMIT_H

#include <stddef.h>

#include "analysis/budget.h"
#include "analysis/curves.h"
#include "analysis/whypoint.h"

/* One point of a curve with what explains it; NAN where not measured. */
struct limit_point {
    double threads, tps;
    int repeats;
    double spread;             /* the repeats' sd over their mean */
    double idle;               /* the held CPUs' idle %, median over repeats */
    const struct whypoint *w;  /* the why files' point, NULL when none */
    struct budget bud;         /* where a transaction's time went */
    double client_busy;        /* client CPU over (window x the client's CPUs), 0..1 */
    double stmts_txn;          /* statements per transaction (qps / tps) */
    int shared;                /* client and server could run on the same CPUs */
    double kernel_share;       /* a profile's share of samples in the kernel */
    double kernel_base;        /* the kernel baseline's worst speedup over tasks of the */
    char kernel_base_test[32]; /* paths that grew, at these CPUs (kernel_base_test) */
    double kernel_base_tasks;  /* at how many tasks */
};

/* What a curve meets: the input. */
struct limit_curve {
    const struct curve *c;
    const char *engine;
    struct limit_point pt[CURVE_MAXPTS]; /* c->k of them, as c's points */
    double rate;                         /* --rate the level was paced at; 0 none */
};

enum limit_kind {
    LK_SCALES,    /* no knee and no fall in the range measured */
    LK_CPU,       /* the held CPUs are saturated */
    LK_LOCK,      /* connections wait on locks or latches */
    LK_IO,        /* connections wait on I/O */
    LK_CLIENT,    /* the server idles while the client's CPUs are saturated */
    LK_LOAD,      /* a --rate caps the offered load */
    LK_LATENCY,   /* one connection: the server idles between round trips */
    LK_KERNEL,    /* kernel time per transaction grows and the kernel's own
                   * baseline or profile says the kernel does not scale there */
    LK_UNDECIDED, /* no figure reaches a class's threshold, or none measured */
    LK_N
};

enum limit_where {
    LW_KNEE, /* from the point before the knee to the knee */
    LW_FALL, /* from the peak to the last point, where the curve falls */
    LW_END,  /* no knee, no fall: the first and last points */
    LW_ONE,  /* a curve of one point */
};

enum limit_sure { LS_FIRM, LS_LIKELY, LS_TENTATIVE };

/* A deciding figure: what, at the first and the second point, in unit. */
struct limit_fig {
    char what[80];
    double a, b;
    const char *unit; /* "us/txn", "%", "x", "tps" */
};

#define LIMIT_FIGS 8

struct limit {
    int curve; /* index into the curves */
    enum limit_where where;
    size_t ia, ib;        /* the points compared */
    enum limit_kind kind; /* what limits it */
    enum limit_kind also; /* a cause the figures do not separate from kind; LK_N none */
    char part[128];       /* which part: "server user CPU", "row locks (Lock:tuple)" */
    char also_part[128];  /* the same for also */
    struct limit_fig fig[LIMIT_FIGS];
    int nfig;
    enum limit_sure sure;
    char sure_why[128]; /* "3 repeats, tps spread 4%, idle 2% against the 10% threshold" */
    char not_[256];     /* what it is not, with its figure: "not CPU (idle 41%)" */
    /* The client may be shaping the server: its threads sleep after most
     * statements while the client's CPUs are busy; "" when not seen. */
    char shaping[200];
};

/* The limits of one curve into out (at most 2: the knee and the fall, or
 * one LW_END / LW_ONE). The count. */
size_t limit_find(const struct limit_curve *lc, int curve, struct limit *out);

/* "CPU-saturated", "lock-bound", "I/O-bound", "client-bound",
 * "offered-load-bound", "latency-bound", "kernel-bound", "scales",
 * "undecided" */
const char *limit_kind_name(enum limit_kind k);
/* "firm", "likely", "tentative" */
const char *limit_sure_name(enum limit_sure s);
/* The verdict in one plain-text sentence (the caller escapes it): "lock-bound
 * at the knee (1 -> 2 threads): row locks (Lock:transactionid 0 -> 5080
 * us/txn, 62% of a transaction); not CPU (idle 41%); firm: 3 repeats". */
void limit_sentence(const struct limit *l, const struct curve *c, char *buf, size_t len);

#endif
