/*
 * test_benchcsv.c - micro.csv and fs.csv have one schema each and survive a
 * round trip: an error message with commas and quotes comes back as it was
 * (it used to be mangled into spaces), and the fs benchmark writes fs.csv
 * with the same columns whether `dbscale fs` or a sweep's baseline made it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep/baseline.h"
#include "results/benchcsv.h"
#include "micro/micro.h"
#include "verbs/verbs.h"

static char dir[] = "/tmp/dbscale-benchcsv-XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static void first_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(buf, (int)len, f));
    fclose(f);
    buf[strcspn(buf, "\n")] = '\0';
}

static void test_micro_round_trip(void **state)
{
    (void)state;
    struct micro_point p;
    memset(&p, 0, sizeof p);
    snprintf(p.test, sizeof p.test, "open1");
    p.mode = 't';
    p.tasks = 2;
    p.cpus = 2;
    double s[2] = {10.5, 11.5};
    p.samples = s;
    p.nsamples = 2;
    snprintf(p.fs_type, sizeof p.fs_type, "tmpfs");
    snprintf(p.error, sizeof p.error, "N/A: open(\"x,y\"), then: no");
    struct sbuf rows = {0};
    micro_csv_row(&rows, &p, "smp-k2");
    p.error[0] = '\0';
    p.ops = 11, p.min = 10.5, p.max = 11.5, p.cv = 4.5, p.idle = 62.5;
    micro_csv_row(&rows, &p, "smp-k2");
    char err[512];
    char sub[600];
    snprintf(sub, sizeof sub, "%s/m", dir);
    assert_int_equal(micro_csv_append(sub, &rows, err, sizeof err), 0);
    sbuf_free(&rows);
    struct microcsv_row *r;
    size_t n;
    assert_int_equal(microcsv_read(sub, &r, &n, err, sizeof err), 0);
    assert_int_equal(n, 2);
    assert_string_equal(r[0].error, "N/A: open(\"x,y\"), then: no");
    assert_true(r[0].ops == 0); /* blank: a failed point has no numbers */
    assert_string_equal(r[1].test, "open1");
    assert_string_equal(r[1].mode, "t");
    assert_int_equal(r[1].tasks, 2);
    assert_true(r[1].ops == 11 && r[1].max == 11.5 && r[1].cv == 4.5);
    assert_string_equal(r[1].samples, "10.5;11.5");
    assert_string_equal(r[1].variant, "smp-k2");
    assert_true(r[1].idle == 62.5);
    free(r);
}

/* The sweep's baseline and `dbscale fs --out` write one fs.csv schema. */
static void test_fs_one_schema(void **state)
{
    (void)state;
    char err[512], a[600], b[600], line[512];
    snprintf(a, sizeof a, "%s/sweep", dir);
    snprintf(b, sizeof b, "%s/fs", dir);
    assert_int_equal(mkdir(a, 0755), 0);
    int *cpus = NULL; /* micro_cpus hands back a list sized from the machine */
    assert_true(micro_cpus(NULL, &cpus, err, sizeof err) >= 1);
    volatile sig_atomic_t stop = 0;
    /* the baseline is library code: it returns errors and prints nothing */
    char errpath[700];
    snprintf(errpath, sizeof errpath, "%s/stderr", dir);
    fflush(stderr);
    int saved = dup(2);
    FILE *ef = fopen(errpath, "w");
    assert_non_null(ef);
    dup2(fileno(ef), 2);
    int brc = baseline_run("fs", cpus, 1, a, "up", &stop, err, sizeof err);
    free(cpus);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    long printed = ftell(ef) >= 0 ? (fseek(ef, 0, SEEK_END), ftell(ef)) : -1;
    fclose(ef);
    assert_int_equal(brc, 0);
    assert_int_equal(printed, 0);
    char *argv[] = {"fs", "--files=20", "--passes=1", "--out", b, NULL};
    assert_int_equal(fs_main(5, argv), 0);
    char pa[700], pb[700];
    snprintf(pa, sizeof pa, "%s/fs.csv", a);
    snprintf(pb, sizeof pb, "%s/fs.csv", b);
    first_line(pa, line, sizeof line);
    assert_string_equal(line, FSCSV_HEADER);
    first_line(pb, line, sizeof line);
    assert_string_equal(line, FSCSV_HEADER);
    struct fscsv_row *r;
    size_t n;
    assert_int_equal(fscsv_read(pa, &r, &n, err, sizeof err), 0);
    assert_true(n >= 1);
    assert_string_equal(r[0].variant, "up");
    assert_true(r[0].create_per_s > 0);
    free(r);
    assert_int_equal(fscsv_read(b, &r, &n, err, sizeof err), 0);
    assert_int_equal(n, 1);
    assert_int_equal(r[0].files, 20);
    free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_micro_round_trip),
        cmocka_unit_test(test_fs_one_schema),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
