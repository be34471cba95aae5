/*
 * fdr.h - false-discovery control over a grid of tests: Benjamini-Hochberg
 * q-values, so that a comparison of 48 (or a million) points marks as many
 * false changes as the target allows, not one per twenty tests.
 *
 * A point is a discovery at FDR target f when its q-value is <= f; that is
 * the same set BH's step-up rule at level f selects (R's p.adjust "BH").
 */
#ifndef DBSCALE_STATS_FDR_H
#define DBSCALE_STATS_FDR_H

#include <stddef.h>

/* q[i] for p[i], i < n. A NAN p is "not tested": it does not count in the
 * number of tests and gets a NAN q. q-values are monotone in p and at most
 * 1; q may be p (in place). 0, or -1 (q untouched) when a p is outside
 * [0, 1]. */
int stats_bh(const double *p, size_t n, double *q);

/* Number of q-values <= fdr (the discoveries). */
size_t stats_bh_count(const double *q, size_t n, double fdr);

/* Level at which to draw the intervals of the points BH selected so that the
 * false-coverage rate stays under fdr (Benjamini and Yekutieli, 2005):
 * 1 - selected * fdr / tested. The plain per-point level is too narrow for
 * points chosen because they stood out. 1 - fdr when nothing was selected. */
double stats_fcr_conf(size_t selected, size_t tested, double fdr);

#endif
