/*
 * test_micro_wis.c - the will-it-scale Linux tests the seed table left out:
 * each is registered, visible, in its alphabetical place among its registry
 * neighbours, and runs one short point in both modes with two tasks (so the
 * shared ones share), counting work or N/A with a reason. No timing is
 * asserted: a point that counted nothing on a loaded machine is retried with
 * longer samples before it counts as a failure.
 */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "micro/micro.h"

/* The list: will-it-scale's Linux tests beyond the seed table. */
static const char *const wis_tests[] = {
    /* clang-format off */
    "brk2", "eventfd1", "fallocate1", "fallocate2", "fstat2", "futex1", "futex2", "futex3",
    "futex4", "malloc1", "malloc2", "page_fault4", "pthread_mutex3", "pthread_mutex4",
    "pthread_mutex5", "read3", "read4", "threadspawn1", "tlb_flush1", "tlb_flush2", "tlb_flush3",
    NULL,
    /* clang-format on */
};

static char scratch[256];

static int make_scratch(void **state)
{
    (void)state;
    snprintf(scratch, sizeof scratch, "/tmp/test_micro_wis.XXXXXX");
    return mkdtemp(scratch) ? 0 : -1;
}

static int remove_scratch(void **state)
{
    (void)state;
    micro_rmtree(scratch);
    return 0;
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return -1;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static void test_registered_in_place(void **state)
{
    (void)state;
    for (int i = 0; wis_tests[i]; i++) {
        const struct micro_test *t = micro_find(wis_tests[i]);
        if (!t)
            fail_msg("%s is not registered", wis_tests[i]);
        assert_false(t->hidden);
        assert_non_null(strstr(t->desc, "unit:"));
        int at = 0;
        while (micro_tests[at] != t)
            at++;
        /* Added in alphabetical places; the older entries keep their order. */
        if (at > 0 && strcmp(micro_tests[at - 1]->name, t->name) >= 0)
            fail_msg("%s comes after %s", t->name, micro_tests[at - 1]->name);
        if (micro_tests[at + 1] && !micro_tests[at + 1]->hidden &&
            strcmp(micro_tests[at + 1]->name, t->name) <= 0)
            fail_msg("%s comes before %s", t->name, micro_tests[at + 1]->name);
    }
}

/* One point; a run that counted nothing (a loaded machine can hold a task
 * off its CPU for a whole short sample) gets two more tries, longer. */
static void run_point(const struct micro_test *t, char mode, struct micro_point *p)
{
    struct micro_config c;
    micro_config_default(&c);
    c.dir = scratch;
    c.warmup = 0.02;
    c.samples = 2;
    c.interval = 0.03;
    for (int try = 0; try < 3; try++) {
        assert_int_equal(micro_run_point(t, mode, 2, &c, p), 0);
        if (p->error[0] || p->iterations > 0)
            return;
        micro_point_free(p);
        c.interval *= 4;
    }
}

static void test_run_in_both_modes(void **state)
{
    (void)state;
    for (int i = 0; wis_tests[i]; i++)
        for (const char *m = "pt"; *m; m++) {
            const struct micro_test *t = micro_find(wis_tests[i]);
            struct micro_point p;
            if (!t)
                fail_msg("%s is not registered", wis_tests[i]);
            run_point(t, *m, &p);
            if (p.error[0]) {
                print_message("%s %c: %s\n", p.test, *m, p.error);
                assert_memory_equal(p.error, "N/A: ", 5);
                assert_true(strlen(p.error) > 8); /* with its reason */
            } else {
                assert_int_equal(p.nsamples, 2);
                assert_true(p.iterations > 0);
                assert_true(p.ops > 0);
            }
            micro_point_free(&p);
            errno = 0;
            assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
            assert_int_equal(entries(scratch), 0);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered_in_place),
        cmocka_unit_test(test_run_in_both_modes),
    };
    return cmocka_run_group_tests(tests, make_scratch, remove_scratch);
}
