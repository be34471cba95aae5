/*
 * test_lsweep.c - which script a sweep's command line names as its workload
 * (driver/lua/lsweep.c), read before the options are parsed: a positional
 * script, --workload (both spellings and forms), a config file's workload=;
 * built-in names and option values are never taken for a script.
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

#include "lua/lsweep.h"

static char root[64], old[512];

static void put(const char *rel, const char *text)
{
    FILE *f = fopen(rel, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/dbscale-test-lsweep-XXXXXX");
    assert_non_null(mkdtemp(root));
    assert_non_null(getcwd(old, sizeof old));
    assert_int_equal(chdir(root), 0);
    mkdir("lib", 0700);
    put("mine.lua", "function event() end\n");
    put("oltp_read_only.lua", "function event() end\n"); /* a built-in's name */
    put("lib/far.lua", "function event() end\n");
    put("c.ini", "; a sweep's config\n[sweep]\nthreads = 1,2\nworkload = mine.lua\n");
    put("b.ini", "workload = oltp_read_only\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    assert_int_equal(chdir(old), 0);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

/* lsweep_find_workload over a NULL-ended argv */
static int find(char **av, char *got, size_t len)
{
    int n = 0;
    while (av[n])
        n++;
    return lsweep_find_workload(n, av, got, len);
}
#define FIND(...) find((char *[]){__VA_ARGS__, NULL}, got, sizeof got)

static void test_positional_and_option(void **state)
{
    (void)state;
    char got[1024];
    assert_int_equal(FIND("mine.lua", "--threads=1"), 1);
    assert_string_equal(got, "mine.lua");
    assert_int_equal(FIND("--threads=1", "mine"), 1); /* NAME -> NAME.lua */
    assert_string_equal(got, "mine.lua");
    assert_int_equal(FIND("--workload=./mine.lua"), 1);
    assert_string_equal(got, "./mine.lua");
    assert_int_equal(FIND("--workload", "mine"), 1);
    assert_int_equal(FIND("far", "--lua-path=lib"), 1);
    assert_string_equal(got, "lib/far.lua");
    /* a built-in name runs the C mix, even with NAME.lua here */
    assert_int_equal(FIND("oltp_read_only"), 0);
    assert_int_equal(FIND("--workload=oltp_read_only"), 0);
    assert_int_equal(FIND("oltp_read_only.lua"), 1); /* unless the file is named */
    /* an option's value is no workload */
    assert_int_equal(FIND("oltp_point_select", "--out", "mine"), 0);
}

static void test_config_file(void **state)
{
    (void)state;
    char got[1024];
    assert_int_equal(FIND("--config", "c.ini"), 1);
    assert_string_equal(got, "mine.lua");
    assert_int_equal(FIND("--config=b.ini"), 0);
    assert_int_equal(FIND("--config=missing.ini"), 0);
    /* never read what is no small regular file (the options refuse it) */
    assert_int_equal(FIND("oltp_read_only", "--config=/dev/zero"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_positional_and_option),
        cmocka_unit_test(test_config_file),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
