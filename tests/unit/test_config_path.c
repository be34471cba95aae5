/*
 * test_config_path.c - --config NAME is found in the working directory
 * first, then in each configs directory (as NAME, and "configs/X" as X),
 * and a name found nowhere gives an error naming every place looked.
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

#include "core/config_path.h"

static char top[256], cwd0[1024];

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("tables = 1\n", f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(top, sizeof top, "/tmp/test_config_path.XXXXXX");
    if (!mkdtemp(top) || !getcwd(cwd0, sizeof cwd0))
        return -1;
    char p[512];
    snprintf(p, sizeof p, "%s/work", top);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/a", top);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/b", top);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/b/x.ini", top);
    touch(p);
    snprintf(p, sizeof p, "%s/a/y.ini", top);
    touch(p);
    snprintf(p, sizeof p, "%s/b/y.ini", top);
    touch(p);
    snprintf(p, sizeof p, "%s/work", top);
    return chdir(p);
}

static int teardown(void **state)
{
    (void)state;
    char cmd[600];
    if (chdir(cwd0) < 0)
        return -1;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    return system(cmd) == 0 ? 0 : -1;
}

static void finds_in_dirs_in_order(void **state)
{
    (void)state;
    char a[300], b[300], out[1024], err[2048], want[600];
    snprintf(a, sizeof a, "%s/a", top);
    snprintf(b, sizeof b, "%s/b", top);
    const char *dirs[] = {a, b, NULL};
    assert_int_equal(config_path_find("x.ini", dirs, out, sizeof out, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/x.ini", b);
    assert_string_equal(out, want);
    /* the first directory wins */
    assert_int_equal(config_path_find("y.ini", dirs, out, sizeof out, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/y.ini", a);
    assert_string_equal(out, want);
    /* configs/X as the README writes it: X in a configs directory */
    assert_int_equal(config_path_find("configs/x.ini", dirs, out, sizeof out, err, sizeof err), 0);
    snprintf(want, sizeof want, "%s/x.ini", b);
    assert_string_equal(out, want);
}

static void working_directory_first(void **state)
{
    (void)state;
    char b[300], out[1024], err[2048];
    snprintf(b, sizeof b, "%s/b", top);
    const char *dirs[] = {b, NULL};
    touch("x.ini");
    assert_int_equal(config_path_find("x.ini", dirs, out, sizeof out, err, sizeof err), 0);
    assert_string_equal(out, "x.ini");
    unlink("x.ini");
}

static void missing_names_every_place(void **state)
{
    (void)state;
    char a[300], b[300], out[1024], err[2048], want[600];
    snprintf(a, sizeof a, "%s/a", top);
    snprintf(b, sizeof b, "%s/b", top);
    const char *dirs[] = {a, b, NULL};
    assert_int_equal(config_path_find("configs/z.ini", dirs, out, sizeof out, err, sizeof err), -1);
    const char *where[] = {"work/configs/z.ini", "a/configs/z.ini", "a/z.ini", "b/configs/z.ini",
                           "b/z.ini"};
    for (size_t i = 0; i < 5; i++) {
        snprintf(want, sizeof want, "%s/%s", top, where[i]);
        assert_non_null(strstr(err, want));
    }
    /* an absolute path is the parser's to read (and to refuse) */
    assert_int_equal(config_path_find("/nonexistent/q.ini", dirs, out, sizeof out, err, sizeof err),
                     0);
    assert_string_equal(out, "/nonexistent/q.ini");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_in_dirs_in_order),
        cmocka_unit_test(working_directory_first),
        cmocka_unit_test(missing_names_every_place),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
