/*
 * target.h - repeats until the answer is clear: per point of a variant's
 * results (its rows' variant label, CPU count and thread count), the 95%
 * interval of the median throughput over its repeats, and whether that is
 * within the study's target (say +-3% of the median).
 *
 * The interval is a seeded bootstrap of the median (stats/boot.h), so the
 * same rows give the same judgement. Fewer than min_repeats values are no
 * interval to judge by: such a point has not met any target yet.
 */
#ifndef DBSCALE_STUDY_TARGET_H
#define DBSCALE_STUDY_TARGET_H

#include <stddef.h>

#include "results/results.h"

struct study_target {
    double ci;         /* the largest half-width allowed, relative to the median (0.03); 0 off */
    int min_repeats;   /* fewer values than this are not judged (3) */
    int max_repeats;   /* a point gets no more repeats than this (the budget) */
    double max_time_s; /* no round is started that would end past this (0: no limit) */
};

struct study_point {
    int vi;         /* the variant (the directory) */
    char label[32]; /* the rows' variant: smp-k2, up, a --variant */
    int cpus, threads;
    int n;         /* repeats measured (neither disturbed nor empty) */
    double median; /* of their throughput */
    double lo, hi; /* its 95% interval (bootstrap); lo = hi = median with one value */
    double half;   /* (hi - lo) / 2 / median: the interval's relative half-width */
    int met;       /* n >= min_repeats and half <= ci */
};

/* The points of rows[0..n) (a variant's results.csv, variant index vi),
 * judged against t: appended to *pts (*npts grows, *pts realloc'd). A
 * disturbed level or one with no throughput counts no repeat. */
void study_target_points(const struct result_row *rows, size_t n, int vi,
                         const struct study_target *t, struct study_point **pts, int *npts);

/* "+-2.4%" style: the interval's half-width in percent of the median. */
double study_target_pct(const struct study_point *p);

#endif
