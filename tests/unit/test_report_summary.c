/*
 * test_report_summary.c - the end-of-sweep table (report_sweep_summary):
 * efficiency against the ideal that is linear up to the server's CPU count
 * and flat after (not speedup / threads, which falls to 25% at 8 threads on
 * 2 CPUs by construction), p95 beside the median TPS, and the speedup and
 * CPU efficiency over the fewest-CPUs variant, per thread count and at the
 * peak; a peak at the last point is called the most threads measured.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_sweep.h"

static void row(struct result_row *r, const char *variant, int cpus, int threads, double tps,
                double p95)
{
    memset(r, 0, sizeof *r);
    snprintf(r->engine, sizeof r->engine, "pgsql");
    snprintf(r->variant, sizeof r->variant, "%s", variant);
    r->cpus = cpus, r->threads = threads, r->tps = tps, r->lat_p95_ms = p95;
}

/* report_sweep_summary's text for rows[0..n), malloc'd (not inlined: gcc then takes the
 * pointers into it for pointers to the local that held it) */
__attribute__((noinline)) static char *summary_of(const struct result_row *rows, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    report_sweep_summary(f, rows, n);
    fclose(f);
    return buf;
}

static void test_summary_table(void **state)
{
    (void)state;
    struct result_row rows[8];
    /* 1 CPU saturates at 1 thread; 2 CPUs at 2 threads, twice as high. */
    int th[] = {1, 2, 4, 8};
    for (int i = 0; i < 4; i++) {
        row(&rows[i], "up", 1, th[i], 100, 1.5 * th[i]);
        row(&rows[4 + i], "smp-k2", 2, th[i], i ? 200 : 100, 0.75 * th[i]);
    }
    char *buf = summary_of(rows, 8);
    printf("%s", buf);
    assert_non_null(strstr(buf, "p95 ms"));
    /* smp-k2 at 8 threads: 200 tps, ideal 200 (flat past 2 CPUs): 100%,
     * p95 6.000, 2.00x the 1-CPU variant at 8 threads: CPU efficiency 100%. */
    char *l = strstr(buf, "smp-k2           2        8");
    assert_non_null(l);
    char line[256];
    sscanf(l, "%255[^\n]", line);
    assert_non_null(strstr(line, " 100%"));
    assert_non_null(strstr(line, "6.000"));
    assert_non_null(strstr(line, "2.00"));
    assert_null(strstr(line, " 25%"));
    /* the peak line says the same against the fewest-CPUs variant */
    assert_non_null(strstr(buf, "vs 1 CPU: speedup 2.00, CPU efficiency 100%"));
    /* a flat curve peaks at its first point and says how far the last fell */
    assert_non_null(strstr(buf, "peak 100.0 tps at 1 thread (p95 1.500 ms); at 8 threads +0% "
                                "from peak"));
    free(buf);
}

/* A curve still rising at its last point: its peak is the most threads
 * measured, never "at 4 threads +0% from peak". */
static void test_peak_at_the_end(void **state)
{
    (void)state;
    struct result_row rows[3];
    int th[] = {1, 2, 4};
    for (int i = 0; i < 3; i++)
        row(&rows[i], "smp-k2", 2, th[i], 100 * (i + 1), 1);
    char *buf = summary_of(rows, 3);
    assert_non_null(strstr(buf, "peak 300.0 tps at 4 threads (p95 1.000 ms), the most threads "
                                "measured\n"));
    assert_null(strstr(buf, "from peak"));
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_table),
        cmocka_unit_test(test_peak_at_the_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
