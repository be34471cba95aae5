/*
 * hist.c - log-bucket latency histogram (see hist.h for the idea).
 * The bucket of v is its power of two and its next six bits: cheap to compute
 * (one clz), and merging two histograms is adding arrays.
 */
#include "stats/hist.h"

#include <string.h>

#define RLX memory_order_relaxed

static inline uint64_t ld(const _Atomic uint64_t *p)
{
    return atomic_load_explicit(p, RLX);
}

static inline void st(_Atomic uint64_t *p, uint64_t v)
{
    atomic_store_explicit(p, v, RLX);
}

unsigned hist_bucket(uint64_t v)
{
    if (v < HIST_SUB)
        return (unsigned)v;
    unsigned e = 63u - (unsigned)__builtin_clzll(v); /* >= 6 */
    unsigned m = (unsigned)(v >> (e - 6)) & (HIST_SUB - 1);
    return (e - 5) * HIST_SUB + m;
}

uint64_t hist_bucket_low(unsigned idx)
{
    if (idx < HIST_SUB)
        return idx;
    unsigned e = idx / HIST_SUB + 5, m = idx % HIST_SUB;
    return (uint64_t)(HIST_SUB + m) << (e - 6);
}

uint64_t hist_bucket_high(unsigned idx)
{
    if (idx < HIST_SUB)
        return idx;
    unsigned e = idx / HIST_SUB + 5;
    return hist_bucket_low(idx) + ((uint64_t)1 << (e - 6)) - 1;
}

void hist_init(struct hist *h)
{
    memset((void *)h, 0, sizeof *h);
    st(&h->min, UINT64_MAX);
}

void hist_record(struct hist *h, uint64_t ns)
{
    _Atomic uint64_t *b = &h->b[hist_bucket(ns)];
    st(b, ld(b) + 1);
    st(&h->count, ld(&h->count) + 1);
    st(&h->sum, ld(&h->sum) + ns);
    if (ns < ld(&h->min))
        st(&h->min, ns);
    if (ns > ld(&h->max))
        st(&h->max, ns);
}

void hist_copy(struct hist *dst, const struct hist *src)
{
    for (unsigned i = 0; i < HIST_BUCKETS; i++)
        st(&dst->b[i], ld(&src->b[i]));
    st(&dst->count, ld(&src->count));
    st(&dst->sum, ld(&src->sum));
    st(&dst->min, ld(&src->min));
    st(&dst->max, ld(&src->max));
}

void hist_merge(struct hist *dst, const struct hist *src)
{
    for (unsigned i = 0; i < HIST_BUCKETS; i++)
        st(&dst->b[i], ld(&dst->b[i]) + ld(&src->b[i]));
    st(&dst->count, ld(&dst->count) + ld(&src->count));
    st(&dst->sum, ld(&dst->sum) + ld(&src->sum));
    if (ld(&src->min) < ld(&dst->min))
        st(&dst->min, ld(&src->min));
    if (ld(&src->max) > ld(&dst->max))
        st(&dst->max, ld(&src->max));
}

void hist_diff(struct hist *dst, const struct hist *a, const struct hist *b)
{
    uint64_t lo = UINT64_MAX, hi = 0, n = 0;
    for (unsigned i = 0; i < HIST_BUCKETS; i++) {
        uint64_t d = ld(&a->b[i]) - ld(&b->b[i]);
        st(&dst->b[i], d);
        if (d) {
            if (lo == UINT64_MAX)
                lo = hist_bucket_low(i);
            hi = hist_bucket_high(i);
            n += d;
        }
    }
    st(&dst->count, n);
    st(&dst->sum, ld(&a->sum) - ld(&b->sum));
    st(&dst->min, lo);
    st(&dst->max, hi);
}

uint64_t hist_count(const struct hist *h)
{
    return ld(&h->count);
}

uint64_t hist_min(const struct hist *h)
{
    return ld(&h->count) ? ld(&h->min) : 0;
}

uint64_t hist_max(const struct hist *h)
{
    return ld(&h->max);
}

double hist_mean(const struct hist *h)
{
    uint64_t n = ld(&h->count);
    return n ? (double)ld(&h->sum) / (double)n : 0.0;
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
    uint64_t n = ld(&h->count);
    if (n == 0)
        return 0;
    if (pct <= 0)
        return hist_min(h);
    if (pct >= 100)
        return hist_max(h);
    /* rank of the sample we want, 1-based: ceil(pct% of n) */
    double r = pct / 100.0 * (double)n;
    uint64_t rank = (uint64_t)r;
    if ((double)rank < r)
        rank++;
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    for (unsigned i = 0; i < HIST_BUCKETS; i++) {
        seen += ld(&h->b[i]);
        if (seen >= rank) {
            uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
            uint64_t v = lo + (hi - lo) / 2;
            uint64_t mn = hist_min(h), mx = hist_max(h);
            return v < mn ? mn : v > mx ? mx : v;
        }
    }
    return hist_max(h);
}
