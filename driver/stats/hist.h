/*
 * hist.h - a mergeable log-bucket latency histogram.
 *
 * Values are nanoseconds. Buckets are exact below 64 ns and then 64 per power
 * of two (under 1.6% relative error), covering the whole uint64 range: no
 * 100 s cap. Count, sum, min and max are exact, and a percentile is clamped
 * to [min, max], so it can never lie outside what was measured.
 *
 * One writer per histogram (its worker); readers (the interval reporter) may
 * read concurrently: every field is a relaxed atomic, so a reader sees each
 * counter whole and the writer pays no locked instruction.
 */
#ifndef DBSCALE_HIST_H
#define DBSCALE_HIST_H

#include <stdatomic.h>
#include <stdint.h>

#define HIST_SUB     64
#define HIST_BUCKETS (59 * HIST_SUB)

struct hist {
    _Atomic uint64_t count, sum, min, max;
    _Atomic uint64_t b[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_record(struct hist *h, uint64_t ns); /* single writer */
void hist_merge(struct hist *dst, const struct hist *src);
/* dst = a - b, bucket by bucket (an interval from two snapshots); min/max
 * are taken from the buckets, so they are bucket bounds, not exact. */
void hist_diff(struct hist *dst, const struct hist *a, const struct hist *b);
void hist_copy(struct hist *dst, const struct hist *src);
/* Value at or below which pct percent of the samples lie; 0 if empty. */
uint64_t hist_percentile(const struct hist *h, double pct);
double hist_mean(const struct hist *h);
uint64_t hist_count(const struct hist *h);
uint64_t hist_min(const struct hist *h); /* 0 if empty */
uint64_t hist_max(const struct hist *h);

/* Bucket arithmetic, public for tests. */
unsigned hist_bucket(uint64_t v);
uint64_t hist_bucket_low(unsigned idx);
uint64_t hist_bucket_high(unsigned idx); /* inclusive */

#endif
