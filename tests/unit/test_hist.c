/*
 * test_hist.c - the latency histogram every reported percentile comes from.
 * Buckets must tile the whole uint64 range with no gap or overlap and stay
 * under 1.6% wide; percentiles must land in the same bucket as the exact
 * percentile of a sorted copy of the samples, for several shapes (uniform,
 * exponential, bimodal, one value, > 100 s); p0/p100 are the exact min/max and
 * nothing is reported outside them; merge equals recording the union, and a
 * diff of a snapshot equals recording only the later samples.
 * Random samples come from a fixed-seed splitmix64, so runs are repeatable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/hist.h"

static uint64_t sm_state;

static uint64_t next64(void)
{
    uint64_t z = (sm_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double unit(void) /* [0, 1) */
{
    return (double)(next64() >> 11) * 0x1.0p-53;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* The exact percentile with the definition hist.h uses: the smallest sample
 * with at least pct% of the samples at or below it (rank ceil(pct/100 * n)). */
static uint64_t ref_percentile(const uint64_t *sorted, size_t n, double pct)
{
    if (pct <= 0)
        return sorted[0];
    if (pct >= 100)
        return sorted[n - 1];
    double r = pct / 100.0 * (double)n;
    uint64_t rank = (uint64_t)r;
    if ((double)rank < r)
        rank++;
    if (rank < 1)
        rank = 1;
    return sorted[rank - 1];
}

static struct hist *new_hist(void)
{
    struct hist *h = malloc(sizeof *h);
    assert_non_null(h);
    hist_init(h);
    return h;
}

static void test_buckets_tile(void **state)
{
    (void)state;
    assert_int_equal(hist_bucket_low(0), 0);
    assert_true(hist_bucket_high(HIST_BUCKETS - 1) == UINT64_MAX);
    assert_int_equal(hist_bucket(UINT64_MAX), HIST_BUCKETS - 1);
    for (unsigned i = 0; i < HIST_BUCKETS; i++) {
        uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
        assert_true(lo <= hi);
        assert_int_equal(hist_bucket(lo), i);
        assert_int_equal(hist_bucket(hi), i);
        if (i + 1 < HIST_BUCKETS && hi + 1 != hist_bucket_low(i + 1))
            fail_msg("bucket %u ends at %llu, bucket %u starts at %llu", i, (unsigned long long)hi,
                     i + 1, (unsigned long long)hist_bucket_low(i + 1));
        if (i < HIST_SUB)
            assert_true(lo == i && hi == i); /* exact below 64 ns */
        else if ((double)(hi - lo + 1) / (double)lo >= 0.016)
            fail_msg("bucket %u [%llu, %llu] is %.3f%% wide", i, (unsigned long long)lo,
                     (unsigned long long)hi, 100.0 * (double)(hi - lo + 1) / (double)lo);
    }
}

static void test_bucket_covers_value(void **state)
{
    (void)state;
    sm_state = 1;
    for (int i = 0; i < 200000; i++) {
        uint64_t v = next64() >> (next64() % 64); /* every magnitude */
        unsigned b = hist_bucket(v);
        assert_true(b < HIST_BUCKETS);
        if (!(hist_bucket_low(b) <= v && v <= hist_bucket_high(b)))
            fail_msg("v=%llu in bucket %u [%llu, %llu]", (unsigned long long)v, b,
                     (unsigned long long)hist_bucket_low(b),
                     (unsigned long long)hist_bucket_high(b));
    }
    for (uint64_t v = 0; v < 5000; v++)
        assert_true(hist_bucket_low(hist_bucket(v)) <= v && v <= hist_bucket_high(hist_bucket(v)));
    for (int e = 0; e < 64; e++) { /* powers of two and their neighbours */
        uint64_t p = (uint64_t)1 << e;
        uint64_t vs[] = {p - 1, p, p + 1};
        for (int k = 0; k < 3; k++) {
            unsigned b = hist_bucket(vs[k]);
            assert_true(hist_bucket_low(b) <= vs[k] && vs[k] <= hist_bucket_high(b));
        }
    }
}

enum shape { UNIFORM, EXPONENTIAL, BIMODAL, SINGLE, HUGE, TINY, NSHAPES };
static const char *const shape_name[] = {"uniform", "exponential", "bimodal",
                                         "single",  "huge",        "tiny"};

static uint64_t draw(enum shape s)
{
    switch (s) {
    case UNIFORM:
        return 1000 + (uint64_t)(unit() * 9999000.0);
    case EXPONENTIAL:
        return (uint64_t)(-log(1.0 - unit()) * 1e6);
    case BIMODAL: /* a cache hit around 50 us, a miss around 500 ms */
        return unit() < 0.7 ? 40000 + next64() % 20000 : 450000000 + next64() % 100000000;
    case SINGLE:
        return 123457;
    case HUGE: /* 200 s .. 14 h, and now and then a wild 2^63 */
        return next64() % 1000 == 0 ? (uint64_t)1 << 63
                                    : 200000000000ull + next64() % 50000000000000ull;
    case TINY:
        return next64() % 200;
    default:
        return 0;
    }
}

static void check_percentiles(const struct hist *h, const uint64_t *sorted, size_t n,
                              const char *what)
{
    static const double pcts[] = {0,  0.001, 0.1, 1,    5,    10,    25,     50, 75,
                                  90, 95,    99,  99.5, 99.9, 99.99, 99.999, 100};
    assert_true(hist_count(h) == n);
    assert_true(hist_min(h) == sorted[0]);
    assert_true(hist_max(h) == sorted[n - 1]);
    assert_true(hist_percentile(h, 0) == sorted[0]);
    assert_true(hist_percentile(h, 100) == sorted[n - 1]);
    for (int i = 0; i < 300; i++) {
        double p = i < (int)(sizeof pcts / sizeof pcts[0]) ? pcts[i] : unit() * 100;
        uint64_t got = hist_percentile(h, p), want = ref_percentile(sorted, n, p);
        if (got < sorted[0] || got > sorted[n - 1])
            fail_msg("%s p%g = %llu outside [min %llu, max %llu]", what, p, (unsigned long long)got,
                     (unsigned long long)sorted[0], (unsigned long long)sorted[n - 1]);
        if (hist_bucket(got) != hist_bucket(want))
            fail_msg("%s p%g = %llu, exact %llu (not in its bucket)", what, p,
                     (unsigned long long)got, (unsigned long long)want);
        double rel = fabs((double)got - (double)want) / (double)(want ? want : 1);
        if (rel >= 0.016)
            fail_msg("%s p%g = %llu, exact %llu: %.2f%% off", what, p, (unsigned long long)got,
                     (unsigned long long)want, rel * 100);
    }
    /* never decreasing in pct */
    uint64_t prev = 0;
    for (double p = 0; p <= 100; p += 0.25) {
        uint64_t v = hist_percentile(h, p);
        assert_true(v >= prev);
        prev = v;
    }
}

static void test_percentiles(void **state)
{
    (void)state;
    enum { N = 20000 };
    uint64_t *v = malloc(N * sizeof *v);
    struct hist *h = new_hist();
    for (int s = 0; s < NSHAPES; s++) {
        sm_state = 1000 + (uint64_t)s;
        hist_init(h);
        double sum = 0;
        for (int i = 0; i < N; i++) {
            v[i] = draw((enum shape)s);
            hist_record(h, v[i]);
            sum += (double)v[i];
        }
        qsort(v, N, sizeof *v, cmp_u64);
        check_percentiles(h, v, N, shape_name[s]);
        if (s != HUGE) /* the sum wraps with 2^63 samples in it */
            assert_float_equal(hist_mean(h), sum / N, sum / N * 1e-9);
    }
    /* one sample: every percentile is that sample */
    hist_init(h);
    hist_record(h, 987654321);
    for (double p = 0; p <= 100; p += 12.5)
        assert_true(hist_percentile(h, p) == 987654321);
    /* the extremes of uint64 */
    hist_init(h);
    hist_record(h, 0);
    hist_record(h, UINT64_MAX);
    assert_true(hist_percentile(h, 0) == 0);
    assert_true(hist_percentile(h, 50) == 0);
    assert_true(hist_percentile(h, 100) == UINT64_MAX);
    assert_int_equal(hist_bucket(hist_percentile(h, 99)), HIST_BUCKETS - 1);
    free(h);
    free(v);
}

static void assert_same(const struct hist *a, const struct hist *b)
{
    assert_true(hist_count(a) == hist_count(b));
    assert_true(a->sum == b->sum);
    assert_true(hist_min(a) == hist_min(b));
    assert_true(hist_max(a) == hist_max(b));
    for (unsigned i = 0; i < HIST_BUCKETS; i++)
        if (a->b[i] != b->b[i])
            fail_msg("bucket %u: %llu != %llu", i, (unsigned long long)a->b[i],
                     (unsigned long long)b->b[i]);
    for (double p = 0; p <= 100; p += 0.5)
        assert_true(hist_percentile(a, p) == hist_percentile(b, p));
}

static void test_merge(void **state)
{
    (void)state;
    struct hist *a = new_hist(), *b = new_hist(), *u = new_hist(), *m = new_hist();
    sm_state = 77;
    for (int i = 0; i < 10000; i++) {
        uint64_t x = draw(EXPONENTIAL);
        hist_record(a, x);
        hist_record(u, x);
    }
    for (int i = 0; i < 7000; i++) {
        uint64_t x = draw(BIMODAL);
        hist_record(b, x);
        hist_record(u, x);
    }
    hist_copy(m, a);
    hist_merge(m, b);
    assert_same(m, u);
    /* merging into an empty histogram is a copy; merging an empty one changes nothing */
    struct hist *e = new_hist();
    hist_merge(e, u);
    assert_same(e, u);
    hist_init(e);
    hist_merge(m, e);
    assert_same(m, u);
    free(a);
    free(b);
    free(u);
    free(m);
    free(e);
}

static void test_diff(void **state)
{
    (void)state;
    struct hist *h = new_hist(), *snap = new_hist(), *later = new_hist(), *d = new_hist();
    sm_state = 4242;
    for (int i = 0; i < 8000; i++)
        hist_record(h, draw(UNIFORM));
    hist_copy(snap, h);
    enum { N = 5000 };
    uint64_t v[N];
    for (int i = 0; i < N; i++) {
        v[i] = draw(EXPONENTIAL) + 50000;
        hist_record(h, v[i]);
        hist_record(later, v[i]);
    }
    hist_diff(d, h, snap);
    assert_true(hist_count(d) == N);
    assert_true(d->sum == later->sum);
    for (unsigned i = 0; i < HIST_BUCKETS; i++)
        assert_true(d->b[i] == later->b[i]);
    /* min/max of a diff are the bounds of the outermost buckets used */
    assert_true(hist_min(d) == hist_bucket_low(hist_bucket(hist_min(later))));
    assert_true(hist_max(d) == hist_bucket_high(hist_bucket(hist_max(later))));
    qsort(v, N, sizeof *v, cmp_u64);
    for (double p = 0.5; p < 100; p += 0.5) {
        uint64_t got = hist_percentile(d, p), want = ref_percentile(v, N, p);
        if (hist_bucket(got) != hist_bucket(want))
            fail_msg("diff p%g = %llu, exact %llu", p, (unsigned long long)got,
                     (unsigned long long)want);
    }
    /* a diff of two equal snapshots is empty */
    hist_diff(d, h, h);
    assert_true(hist_count(d) == 0);
    assert_true(hist_percentile(d, 50) == 0);
    assert_true(hist_min(d) == 0);
    assert_true(hist_max(d) == 0);
    free(h);
    free(snap);
    free(later);
    free(d);
}

static void test_empty(void **state)
{
    (void)state;
    struct hist *h = new_hist();
    assert_true(hist_count(h) == 0);
    assert_true(hist_percentile(h, 0) == 0);
    assert_true(hist_percentile(h, 50) == 0);
    assert_true(hist_percentile(h, 99.9) == 0);
    assert_true(hist_percentile(h, 100) == 0);
    assert_true(hist_min(h) == 0);
    assert_true(hist_max(h) == 0);
    assert_float_equal(hist_mean(h), 0, 0);
    free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buckets_tile), cmocka_unit_test(test_bucket_covers_value),
        cmocka_unit_test(test_percentiles),  cmocka_unit_test(test_merge),
        cmocka_unit_test(test_diff),         cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
