/*
 * test_intervals.c - intervals.csv round-trips through its one owner: what
 * intervals_write wrote, intervals_read gives back, a variant with a comma
 * and a quote included; a file with a missing column or a bad number is
 * refused with its line named.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/intervals.h"

static void test_round_trip(void **st)
{
    (void)st;
    char dir[] = "/tmp/test-intervals-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct intervals iv = {0}, back = {0};
    for (int i = 0; i < 3; i++) {
        struct interval_row r = {.cpus = 2,
                                 .threads = 4,
                                 .repeat = 1,
                                 .t = i + 1.0,
                                 .tps = 100.5 * i,
                                 .qps = 2000.25,
                                 .p95 = 1.5,
                                 .errors = i};
        snprintf(r.variant, sizeof r.variant, "smp-k2, \"x\"");
        intervals_add(&iv, &r);
    }
    assert_int_equal(intervals_write(dir, &iv), 0);
    char err[512] = "";
    assert_int_equal(intervals_read(dir, &back, err, sizeof err), 0);
    assert_int_equal(back.n, 3);
    assert_string_equal(back.rows[2].variant, "smp-k2, \"x\"");
    assert_int_equal(back.rows[2].threads, 4);
    assert_true(back.rows[2].tps == 201.0);
    assert_true(back.rows[1].t == 2.0);
    assert_true(back.rows[2].errors == 2.0);
    char path[600];
    snprintf(path, sizeof path, "%s/intervals.csv", dir);
    FILE *f = fopen(path, "w");
    fputs("variant,cpus,threads,repeat,t,tps,qps,p95\nup,1,1,0,1,2,3,4\n", f);
    fclose(f);
    struct intervals bad = {0};
    assert_int_equal(intervals_read(path, &bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "no errors column"));
    f = fopen(path, "w");
    fputs(INTERVALS_HEADER "\nup,1,1,0,1,2,3,4,0\nup,1,1,0,x,2,3,4,0\n", f);
    fclose(f);
    intervals_free(&bad);
    assert_int_equal(intervals_read(path, &bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "intervals.csv:3"));
    unlink(path);
    rmdir(dir);
    intervals_free(&iv), intervals_free(&back), intervals_free(&bad);
}

int main(void)
{
    const struct CMUnitTest t[] = {cmocka_unit_test(test_round_trip)};
    return cmocka_run_group_tests(t, NULL, NULL);
}
