/*
 * boot.h - a seeded bootstrap over groups of repeats: each of k groups (the
 * repeats at each thread count, say) is resampled with replacement, a
 * statistic is computed on every resample, and the percentile interval of
 * each of its outputs is returned.
 *
 * Reproducible byte for byte: the resamples come from stats/prng.h with the
 * caller's seed, nothing else. A resample on which an output is undefined
 * (no knee, a USL fit that says nothing) is left out of that output's
 * interval and counted, so a reader sees "valid in 62% of resamples".
 */
#ifndef DBSCALE_STATS_BOOT_H
#define DBSCALE_STATS_BOOT_H

#include <stddef.h>
#include <stdint.h>

/* One bootstrapped quantity. */
struct stats_interval {
    double est;    /* the statistic on the data as measured; NAN when undefined there */
    double lo, hi; /* percentile interval over the valid resamples; NAN when none */
    size_t valid;  /* resamples on which it was defined */
    size_t reps;   /* resamples drawn (valid / reps is the fraction valid) */
    size_t min_n;  /* fewest values in a group: a group of 1 adds no spread, so
                    * the interval is too narrow (1: say so; the pooled ratio of
                    * stats/pooled.h is the tool for one value per point) */
};

/* Zeros take the defaults: 1000 resamples, conf 0.95; seed 0 is a seed like any other. */
struct stats_boot_opt {
    size_t reps;
    uint64_t seed;
    double conf;
};

/* The statistic: from k groups x[g][0..n[g]) write nout outputs to out,
 * NAN for an output undefined on this sample. Return -1 to reject the
 * whole sample (every output undefined). */
typedef int (*stats_boot_fn)(const double *const *x, const size_t *n, size_t k, void *ctx,
                             double *out);

/* Fills ci[0..nout). draws, when not NULL, receives the reps x nout outputs
 * (row per resample, NAN where undefined) for a caller's own tally.
 * 0, or -1 on bad input (k or nout 0, an empty group). */
int stats_boot(const double *const *x, const size_t *n, size_t k, stats_boot_fn fn, void *ctx,
               size_t nout, const struct stats_boot_opt *o, struct stats_interval *ci,
               double *draws);

/* The percentile interval of v[0..m) at level conf (v is sorted in place; NAN
 * values are not allowed): lo and hi are values of v (the j-th from each end,
 * j = ceil(m (1 - conf) / 2)), so a discrete quantity such as a thread count
 * stays a thread count. */
void stats_percentile_interval(double *v, size_t m, double conf, double *lo, double *hi);

#endif
