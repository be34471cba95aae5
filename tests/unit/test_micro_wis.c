/*
 * test_micro_wis.c - the will-it-scale Linux tests the seed table left out:
 * each is registered, visible, and in its alphabetical place among its
 * registry neighbours. That they run and count work in both modes at 1 and 2
 * tasks is test_micro.c's test_every_test_counts, which covers every test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registered_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
