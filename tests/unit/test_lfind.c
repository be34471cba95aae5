/*
 * test_lfind.c - where a script NAME and require() look (driver/lua/lfind.c):
 * the working directory first, then --lua-path's directories and '?'
 * templates in order; a path with '/' is taken as it is; --lua-path is
 * found in argv in both spellings before any option parsing.
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

#include "lua/lfind.h"

static char root[64];

static void touch(const char *rel)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/dbscale-test-lfind-XXXXXX");
    assert_non_null(mkdtemp(root));
    char p[256];
    snprintf(p, sizeof p, "%s/a", root);
    mkdir(p, 0700);
    snprintf(p, sizeof p, "%s/b", root);
    mkdir(p, 0700);
    touch("a/x.lua");
    touch("b/x.lua");
    touch("b/y.lua");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_path_order(void **state)
{
    (void)state;
    char lp[256], out[512], want[256];
    snprintf(lp, sizeof lp, "/nonexistent;%s/a,%s/b/?.lua", root, root);
    assert_int_equal(lfind_script("x", lp, out, sizeof out), 1);
    snprintf(want, sizeof want, "%s/a/x.lua", root);
    assert_string_equal(out, want); /* the first entry that holds it */
    assert_int_equal(lfind_script("y.lua", lp, out, sizeof out), 1);
    snprintf(want, sizeof want, "%s/b/y.lua", root);
    assert_string_equal(out, want);
    assert_int_equal(lfind_script("z", lp, out, sizeof out), 0);
    assert_int_equal(lfind_script("y", NULL, out, sizeof out), 0);
    assert_int_equal(lfind_script("--y", lp, out, sizeof out), 0);
    /* a path is never searched for */
    assert_int_equal(lfind_script("sub/x", lp, out, sizeof out), 0);
}

static void test_working_directory_first(void **state)
{
    (void)state;
    char old[512], lp[256], out[512];
    assert_non_null(getcwd(old, sizeof old));
    char b[256];
    snprintf(b, sizeof b, "%s/b", root);
    assert_int_equal(chdir(b), 0);
    snprintf(lp, sizeof lp, "%s/a", root);
    assert_int_equal(lfind_script("x", lp, out, sizeof out), 1);
    assert_string_equal(out, "x.lua");
    assert_int_equal(chdir(old), 0);
}

static void test_package_path(void **state)
{
    (void)state;
    char out[1024];
    lfind_package_path("/s/t.lua", "/l1;/l2/?.lua", out, sizeof out);
    assert_string_equal(out, "/s/?.lua;./?.lua;/l1/?.lua;/l2/?.lua;/usr/share/sysbench/?.lua;"
                             "/usr/local/share/sysbench/?.lua;");
    lfind_package_path("t.lua", NULL, out, sizeof out);
    assert_string_equal(out, "./?.lua;./?.lua;/usr/share/sysbench/?.lua;"
                             "/usr/local/share/sysbench/?.lua;");
}

static void test_argv(void **state)
{
    (void)state;
    char *a1[] = {"x", "--lua_path=/p", "run"};
    assert_string_equal(lfind_lua_path_arg(3, a1), "/p");
    char *a2[] = {"x", "--lua-path", "/q", "run"};
    assert_string_equal(lfind_lua_path_arg(4, a2), "/q");
    char *a3[] = {"x", "--lua-pathx=/q", "--lua-path"};
    assert_null(lfind_lua_path_arg(3, a3));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_path_order),
        cmocka_unit_test(test_working_directory_first),
        cmocka_unit_test(test_package_path),
        cmocka_unit_test(test_argv),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
