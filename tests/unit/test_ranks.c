/*
 * test_ranks.c - the split of a run over ranks and the reduction of their
 * results (driver/ranks/ranks.c), without MPI.
 * --threads=7 over 3 ranks is 3/2/2 (remainder to the lowest ranks), --rate
 * the same way and adding up to the whole; every rank has its own seed.
 * Latency samples recorded by three "ranks" and merged give exactly the
 * percentiles of one histogram of all samples; counters and error codes add
 * up; a failed rank's message names its rank and host.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/intervals.h"
#include "ranks/ranks.h"

static uint64_t sm_state = 42;

static uint64_t next64(void)
{
    uint64_t z = (sm_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void test_share_threads(void **state)
{
    (void)state;
    assert_int_equal(ranks_share(7, 3, 0), 3);
    assert_int_equal(ranks_share(7, 3, 1), 2);
    assert_int_equal(ranks_share(7, 3, 2), 2);
    assert_int_equal(ranks_share(8, 3, 1), 3);
    assert_int_equal(ranks_share(8, 3, 2), 2);
    assert_int_equal(ranks_share(6, 3, 2), 2);
    for (long long t = 1; t < 50; t++) {
        long long sum = 0;
        for (int r = 0; r < 4; r++)
            sum += ranks_share(t, 4, r);
        assert_int_equal(sum, t);
    }
}

static void test_share_rate(void **state)
{
    (void)state;
    assert_true(ranks_rate_share(10, 3, 0) == 4);
    assert_true(ranks_rate_share(10, 3, 1) == 3);
    assert_true(ranks_rate_share(10, 3, 2) == 3);
    assert_true(ranks_rate_share(0, 3, 1) == 0); /* unlimited stays unlimited */
    double sum = 0;
    for (int r = 0; r < 3; r++)
        sum += ranks_rate_share(100.5, 3, r);
    assert_true(fabs(sum - 100.5) < 1e-9);
    char err[200];
    assert_int_equal(ranks_check_split(7, 0, 3, err, sizeof err), 0);
    assert_int_equal(ranks_check_split(2, 0, 3, err, sizeof err), -1);
    assert_non_null(strstr(err, "--threads=2"));
    assert_int_equal(ranks_check_split(7, 2, 3, err, sizeof err), -1);
    assert_non_null(strstr(err, "--rate"));
}

static void test_seeds_distinct(void **state)
{
    (void)state;
    assert_true(ranks_seed(1234, 0) == 1234);
    for (int a = 0; a < 64; a++)
        for (int b = a + 1; b < 64; b++)
            assert_true(ranks_seed(1234, a) != ranks_seed(1234, b));
    assert_true(ranks_seed(1234, 1) != ranks_seed(1235, 1));
}

static struct hist *new_hist(void)
{
    struct hist *h = malloc(sizeof *h);
    assert_non_null(h);
    hist_init(h);
    return h;
}

static void test_merge_exact(void **state)
{
    (void)state;
    enum { R = 3, N = 20000 };
    struct level_result res[R];
    struct hist *all = new_hist();
    struct rank_part *parts = calloc(R, sizeof *parts);
    assert_non_null(parts);
    for (int r = 0; r < R; r++) {
        memset(&res[r], 0, sizeof res[r]);
        res[r].lat = new_hist();
        res[r].threads = (int)ranks_share(7, R, r);
        res[r].time_s = 10.0 + r * 0.01;
        res[r].txns = 1000 + r;
        res[r].reads = 14000 + r;
        res[r].writes = 10 * r;
        res[r].others = 2000 + 2 * r;
        res[r].client_user_s = 1.5;
        res[r].fair_events_avg = 100 + 10 * r;
        res[r].fair_events_sd = 5;
        snprintf(res[r].codes[0].code, sizeof res[r].codes[0].code, "40001");
        res[r].codes[0].n = (uint64_t)r + 1;
        res[r].ncodes = 1;
        if (r == 2) {
            snprintf(res[r].codes[1].code, sizeof res[r].codes[1].code, "1213");
            res[r].codes[1].n = 7;
            res[r].ncodes = 2;
        }
        /* each rank a different shape: the union is none of them */
        for (int i = 0; i < N * (r + 1); i++) {
            uint64_t v = 1000 + next64() % (uint64_t)(50000 * (r * r + 1));
            if (r == 1 && i % 97 == 0)
                v = 3000000000ull + next64() % 1000; /* a tail only rank 1 has */
            hist_record(res[r].lat, v);
            hist_record(all, v);
        }
        ranks_pack(&parts[r], &res[r], r, "client1", 0);
    }
    struct level_result m;
    assert_int_equal(ranks_merge(&m, parts, R), 0);
    assert_int_equal(m.threads, 7);
    assert_int_equal(m.txns, 3003);
    assert_int_equal(m.reads, 42003);
    assert_int_equal(m.writes, 30);
    assert_int_equal(m.others, 6006);
    assert_true(m.time_s == 10.02);
    assert_true(fabs(m.client_user_s - 4.5) < 1e-9);
    assert_int_equal(m.ncodes, 2);
    assert_string_equal(m.codes[0].code, "40001");
    assert_int_equal(m.codes[0].n, 6);
    assert_string_equal(m.codes[1].code, "1213");
    assert_int_equal(m.codes[1].n, 7);
    /* pooled over 3+2+2 connections: (3*100 + 2*110 + 2*120) / 7 */
    assert_true(fabs(m.fair_events_avg - 760.0 / 7) < 1e-9);
    assert_int_equal(hist_count(m.lat), hist_count(all));
    assert_true(hist_min(m.lat) == hist_min(all));
    assert_true(hist_max(m.lat) == hist_max(all));
    assert_true(hist_mean(m.lat) == hist_mean(all));
    double pcts[] = {0, 1, 50, 90, 95, 99, 99.9, 100};
    for (size_t i = 0; i < sizeof pcts / sizeof pcts[0]; i++)
        assert_true(hist_percentile(m.lat, pcts[i]) == hist_percentile(all, pcts[i]));
    /* and not the average of the per-rank p95s */
    double avg95 = 0;
    for (int r = 0; r < R; r++)
        avg95 += (double)hist_percentile(res[r].lat, 95) / R;
    assert_true(fabs(avg95 - (double)hist_percentile(m.lat, 95)) > 1000);
    level_result_free(&m);
    for (int r = 0; r < R; r++)
        free(res[r].lat);
    free(all);
    free(parts);
}

static void test_merge_failure_names_rank(void **state)
{
    (void)state;
    struct rank_part *parts = calloc(3, sizeof *parts);
    assert_non_null(parts);
    struct level_result r = {0};
    r.threads = 2;
    ranks_pack(&parts[0], &r, 0, "client1", 0);
    ranks_pack(&parts[1], &r, 1, "client2", 1);
    snprintf(r.fatal_msg, sizeof r.fatal_msg, "connection lost");
    ranks_pack(&parts[2], &r, 2, "client3", -1);
    struct level_result m;
    assert_int_equal(ranks_merge(&m, parts, 3), -1);
    assert_string_equal(m.fatal_msg, "rank 2 on client3: connection lost");
    assert_int_equal(hist_count(m.lat), 0);
    assert_int_equal(hist_percentile(m.lat, 95), 0);
    level_result_free(&m);
    assert_int_equal(ranks_merge(&m, parts, 2), 1); /* only an interruption */
    level_result_free(&m);
    free(parts);
}

/* Interval periods of ranks of unequal length: the k-th periods add up,
 * p95 is the highest, and the longer rank's extra period stays. */
static void test_merge_intervals(void **state)
{
    (void)state;
    struct interval_row a[2] = {{.t = 1, .threads = 3, .tps = 100, .qps = 1000, .p95 = 2},
                                {.t = 2, .threads = 3, .tps = 110, .qps = 1100, .p95 = 3}};
    struct interval_row b[1] = {
        {.t = 1, .threads = 2, .tps = 50, .qps = 500, .p95 = 5, .errors = 1}};
    const struct interval_row *per[2] = {a, b};
    size_t n[2] = {2, 1};
    struct intervals out = {0};
    ranks_merge_intervals(&out, per, n, 2);
    assert_int_equal(out.n, 2);
    assert_float_equal(out.rows[0].tps, 150, 1e-9);
    assert_float_equal(out.rows[0].qps, 1500, 1e-9);
    assert_float_equal(out.rows[0].p95, 5, 1e-9);
    assert_float_equal(out.rows[0].errors, 1, 1e-9);
    assert_int_equal(out.rows[0].threads, 5);
    assert_float_equal(out.rows[1].tps, 110, 1e-9);
    assert_float_equal(out.rows[1].t, 2, 1e-9);
    intervals_free(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_share_threads),
        cmocka_unit_test(test_share_rate),
        cmocka_unit_test(test_seeds_distinct),
        cmocka_unit_test(test_merge_exact),
        cmocka_unit_test(test_merge_failure_names_rank),
        cmocka_unit_test(test_merge_intervals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
