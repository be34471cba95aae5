/*
 * test_plot_log.c - the plot room prints nothing: curves_load()/plot_make()
 * return the summary table, notes and errors in struct curves_log for the
 * verb to print (a sweep may run them inside itself). Run on the fixture
 * sweep with gnuplot made unfindable, so the run stops at the first graph
 * with gnuplot's absence in log.err and no gnuplot is needed here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plot/plot.h"

static void repo_root(char *p, size_t len)
{
    if (access("tests/data/pgsql-sweep/results.csv", R_OK) == 0) {
        snprintf(p, len, ".");
        return;
    }
    snprintf(p, len, "%s", __FILE__);
    char *s = strstr(p, "/tests/unit/");
    if (s)
        *s = '\0';
}

static void test_plot_prints_nothing(void **state)
{
    (void)state;
    char root[1024], data[1200], out[] = "/tmp/dbscale-plotlog-XXXXXX",
                                 cap[] = "/tmp/dbscale-stdout-XXXXXX";
    repo_root(root, sizeof root);
    snprintf(data, sizeof data, "%s/tests/data/pgsql-sweep", root);
    assert_non_null(mkdtemp(out));
    setenv("DBSCALE_DATADIR", root, 1);
    char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", "/nonexistent", 1);
    int fd = mkstemp(cap);
    assert_true(fd >= 0);
    fflush(stdout);
    fflush(stderr);
    int so = dup(1), se = dup(2);
    dup2(fd, 1);
    dup2(fd, 2);

    struct curves_log log = {0};
    struct plot_files written = {0};
    struct curves cv = {0};
    struct plot p = {0};
    cv.log = &log;
    p.cv = &cv;
    p.written = &written;
    p.out = out;
    char *paths[] = {data};
    int lrc = curves_load(&cv, paths, 1);
    int mrc = lrc == 0 ? plot_make(&p, "png") : 0;

    fflush(stdout);
    fflush(stderr);
    dup2(so, 1);
    dup2(se, 2);
    close(so), close(se);
    if (path)
        setenv("PATH", path, 1);
    free(path);
    struct stat st;
    assert_int_equal(fstat(fd, &st), 0);
    close(fd);
    unlink(cap);
    assert_int_equal(lrc, 0);
    assert_int_equal(mrc, -1);
    assert_non_null(strstr(log.err, "gnuplot not found"));
    assert_non_null(log.out.s);
    assert_non_null(strstr(log.out.s, "summary: "));
    assert_int_equal(st.st_size, 0); /* nothing reached stdout or stderr */

    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", out);
    assert_int_equal(system(cmd), 0);
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
    plot_files_free(&written);
    curves_free(&cv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plot_prints_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
