/*
 * test_latcsv.c - latency.csv round-trips through its one owner (counts
 * exact, a variant with a comma quoted), and a bucket whose bounds are
 * reversed or whose count is not a number is refused with its line named.
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

#include "results/latcsv.h"

static void test_round_trip(void **st)
{
    (void)st;
    char dir[] = "/tmp/test-latcsv-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct latcsv l = {0}, back = {0};
    struct latcsv_row r = {.cpus = 2,
                           .threads = 8,
                           .repeat = 1,
                           .lo_ms = 0.5,
                           .hi_ms = 0.507,
                           .count = 12345678901ull};
    snprintf(r.variant, sizeof r.variant, "a,b");
    latcsv_add(&l, &r);
    assert_int_equal(latcsv_write(dir, &l), 0);
    char err[512] = "", path[600];
    assert_int_equal(latcsv_read(dir, &back, err, sizeof err), 0);
    assert_int_equal(back.n, 1);
    assert_string_equal(back.rows[0].variant, "a,b");
    assert_true(back.rows[0].count == 12345678901ull);
    assert_true(back.rows[0].hi_ms == 0.507);
    snprintf(path, sizeof path, "%s/latency.csv", dir);
    FILE *f = fopen(path, "w");
    fputs(LATCSV_HEADER "\nup,1,1,0,1,2,3\nup,1,1,0,2,1,3\n", f);
    fclose(f);
    struct latcsv bad = {0};
    assert_int_equal(latcsv_read(path, &bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "latency.csv:3"));
    unlink(path);
    rmdir(dir);
    latcsv_free(&l), latcsv_free(&back), latcsv_free(&bad);
}

int main(void)
{
    const struct CMUnitTest t[] = {cmocka_unit_test(test_round_trip)};
    return cmocka_run_group_tests(t, NULL, NULL);
}
