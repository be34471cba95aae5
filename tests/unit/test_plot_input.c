/*
 * test_plot_input.c - what plot and compare read must be a regular file of
 * sane size: a results.csv that is a FIFO used to block the verb forever,
 * /dev/zero grew memory without bound. Every reader (results.csv, micro.csv,
 * a TSV, meta.json) goes through results_input_open(); an alarm turns a
 * blocked open into a failure instead of a hung test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/compare_load.h"
#include "results/input.h"
#include "results/results.h"

static char dir[] = "/tmp/dbscale-input-XXXXXX";

static void on_alarm(int sig)
{
    (void)sig;
    static const char m[] = "blocked on a FIFO\n";
    (void)!write(2, m, sizeof m - 1);
    _exit(1);
}

static void test_fifo_is_refused(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(dir));
    char p[600], err[512];
    snprintf(p, sizeof p, "%s/results.csv", dir);
    assert_int_equal(mkfifo(p, 0600), 0);
    signal(SIGALRM, on_alarm);
    alarm(5);
    struct result_set rs;
    assert_int_equal(results_read(dir, &rs, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a regular file"));
    struct compare_sets ss = {0};
    assert_int_equal(compare_load(&ss, p, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a regular file"));
    compare_sets_free(&ss);
    alarm(0);
    unlink(p);
    rmdir(dir);
}

static void test_open_rules(void **state)
{
    (void)state;
    char err[512];
    FILE *f = results_input_open("/dev/zero", err, sizeof err);
    assert_null(f);
    assert_non_null(strstr(err, "/dev/zero: not a regular file"));
    f = results_input_open("/nonexistent/results.csv", err, sizeof err);
    assert_null(f);
    assert_non_null(strstr(err, "/nonexistent/results.csv"));
    /* Bigger than any results file: a sparse file costs no disk. */
    char p[] = "/tmp/dbscale-big-XXXXXX";
    int fd = mkstemp(p);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)RESULTS_INPUT_MAX + 1), 0);
    close(fd);
    f = results_input_open(p, err, sizeof err);
    assert_null(f);
    assert_non_null(strstr(err, "too large"));
    assert_int_equal(truncate(p, 10), 0);
    f = results_input_open(p, err, sizeof err);
    assert_non_null(f);
    fclose(f);
    unlink(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fifo_is_refused),
        cmocka_unit_test(test_open_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
