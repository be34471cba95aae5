/*
 * curveboot.h - intervals for a scaling curve's shape, by the bootstrap of
 * stats/boot.h over each point's repeats: the peak throughput and where it
 * is, the knee, the USL's sigma and kappa, the scaling efficiency at the
 * peak; and the ratio of two curves' peaks (SMP against UP, B against A).
 *
 * Each quantity is the one stats/stats.h computes (stats_peak, stats_knee,
 * stats_usl_fit + stats_usl_meaningful, stats_efficiency_cpus), applied to
 * every resample of the curve, so the page's figure and its interval agree.
 */
#ifndef DBSCALE_STATS_CURVEBOOT_H
#define DBSCALE_STATS_CURVEBOOT_H

#include <stddef.h>

#include "stats/boot.h"

/* One curve: k points at thread counts n[] (ascending), each with its repeats. */
struct stats_curve {
    size_t k;
    const double *n;        /* thread counts */
    const double *const *x; /* x[i][0..nx[i]): throughput of each repeat at n[i] */
    const size_t *nx;
    int cpus;   /* CPUs the server held (the ideal bends there); <= 0 unknown */
    int median; /* a point's centre: 1 the median of its repeats (as the page
                 * plots), 0 their mean */
};

struct stats_curve_ci {
    struct stats_interval peak;   /* highest centre */
    struct stats_interval peak_n; /* its thread count; lo and hi are thread counts */
    struct stats_interval knee_n; /* thread count of stats_knee; valid = resamples with a knee */
    struct stats_interval sigma;  /* USL contention: only resamples whose fit is meaningful */
    struct stats_interval kappa;  /* USL coherency: the same resamples */
    struct stats_interval eff;    /* the peak's throughput over its ideal (stats_efficiency_cpus) */
};

/* peak_share and knee_share, when not NULL, get k fractions: of the resamples,
 * how many put the peak (the knee) at point i; the thread counts a peak
 * "took" are those with a share. 0, or -1 on bad input (k 0, a point with
 * no repeats). */
int stats_curve_boot(const struct stats_curve *c, const struct stats_boot_opt *o,
                     struct stats_curve_ci *ci, double *peak_share, double *knee_share);

/* peak(b) / peak(a) - 1 over joint resamples of both curves (a's points
 * resampled independently of b's). 0, or -1 on bad input. */
int stats_peak_ratio_boot(const struct stats_curve *a, const struct stats_curve *b,
                          const struct stats_boot_opt *o, struct stats_interval *ci);

#endif
