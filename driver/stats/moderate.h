/*
 * moderate.h - borrowing strength across a grid: each point's noise estimate
 * from a few repeats is shrunk toward the noise of all the points of its
 * family (empirical Bayes: Smyth's "moderated t", 2004, as limma's eBayes),
 * so a comparison of 5 repeats per point gains the degrees of freedom of
 * the whole grid. Opt-in, and only where the data show the family's noise
 * is alike; stats_effect's per-point Welch test is the default.
 *
 * Measured (tests/unit/test_classify.c, 1000 grids of 48 points, 5 repeats
 * a side, 3% noise, a +10% change on 8 points, BH at 5%): Welch alone finds
 * 84% of the changed points, moderated 99%; A/A grids are marked in 2% of
 * grids by Welch, 4-5% moderated (the BH target is 5%). Where the points'
 * noise differs (CV 1.5%..6% across the grid), the prior's shape is wrong
 * and moderation would mark ~7% of A/A grids: hence the gate, which leaves
 * the effects alone unless the prior's df d0 is at least min_d0 (default
 * 10): a d0 that high says the spreads differ little more than sampling
 * explains.
 *
 * Moderate one family at a time: one figure (TPS, or a latency percentile,
 * or CPU per transaction) of one comparison over its grid, never figures of
 * different noise together. The moderated test pools a point's two sides
 * (equal variances at a point, as Student's test), fine with equal repeats
 * a side; stats_effect_repeats still reads each side's own spread.
 */
#ifndef DBSCALE_STATS_MODERATE_H
#define DBSCALE_STATS_MODERATE_H

#include <stddef.h>

#include "stats/effect.h"

struct stats_moderation {
    size_t used; /* points whose spread entered the estimate */
    double d0;   /* prior degrees of freedom: INFINITY when the spreads differ no
                  * more than sampling explains; NAN with fewer than 3 points */
    double s0;   /* prior standard deviation of the logs: the family's noise */
    int applied; /* the effects were re-derived (d0 >= min_d0) */
};

/* Estimates the prior from the points of e[0..n) with an interval (why ==
 * OK); when d0 >= min_d0 (0 takes 10), re-derives their se, df (d0 + the
 * point's, capped at the grid's total), p, lo, hi and mde and sets their
 * moderated flag. 0 when applied; -1 (effects untouched, m says why: d0 too
 * low, or fewer than 3 points) otherwise. */
int stats_moderate(struct stats_effect *e, size_t n, double min_d0, struct stats_moderation *m);

#endif
