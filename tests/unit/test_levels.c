/*
 * test_levels.c - levels.csv, when each level ran: written and read back
 * whole (a variant with a comma, an empty boot), and a file that is no
 * levels.csv (a column missing, a start that is not a number) named with
 * its line.
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

#include "results/levels.h"

static void round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/dbscale-test-levels-XXXXXX", err[600], path[600];
    assert_non_null(mkdtemp(dir));
    struct levels l = {0}, back = {0};
    struct level_time a = {
        .cpus = 2, .threads = 4, .repeat = 3, .started = 1767225600.125, .seconds = 2.5};
    snprintf(a.variant, sizeof a.variant, "smp-k2");
    snprintf(a.boot, sizeof a.boot, "1131c339-7e5e-4304-b840-e43159c9cfb7");
    struct level_time b = a;
    snprintf(b.variant, sizeof b.variant, "odd,name");
    b.boot[0] = '\0';
    b.started += 10;
    levels_add(&l, &a);
    levels_add(&l, &b);
    assert_int_equal(levels_write(dir, &l), 0);
    snprintf(path, sizeof path, "%s/levels.csv", dir);
    assert_int_equal(levels_read(dir, &back, err, sizeof err), 0); /* the directory's */
    assert_int_equal((int)back.n, 2);
    assert_string_equal(back.rows[0].boot, a.boot);
    assert_string_equal(back.rows[1].variant, "odd,name");
    assert_string_equal(back.rows[1].boot, "");
    assert_int_equal(back.rows[0].threads, 4);
    assert_int_equal(back.rows[0].repeat, 3);
    assert_true(back.rows[0].started == 1767225600.125);
    assert_true(back.rows[1].started - back.rows[0].started == 10);
    assert_true(back.rows[1].seconds == 2.5);
    levels_free(&back);
    /* a start that is no number: the file and line named */
    FILE *f = fopen(path, "w");
    fprintf(f, "%s\nsmp-k2,2,4,1,,soon,1\n", LEVELS_HEADER);
    fclose(f);
    assert_int_equal(levels_read(path, &back, err, sizeof err), -1);
    assert_non_null(strstr(err, "levels.csv:2"));
    levels_free(&back);
    /* no started column */
    f = fopen(path, "w");
    fprintf(f, "variant,cpus,threads,repeat,boot,seconds\nsmp-k2,2,4,1,,1\n");
    fclose(f);
    assert_int_equal(levels_read(path, &back, err, sizeof err), -1);
    assert_non_null(strstr(err, "started"));
    levels_free(&back);
    levels_free(&l);
    unlink(path);
    rmdir(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
