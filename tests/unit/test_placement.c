/*
 * test_placement.c - where the sweep's client runs beside a server held to
 * k CPUs (machine/placement.c): same, rest (and rest with nothing left), a
 * list that does or does not name a server CPU, and none; then pinning the
 * calling thread and back.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "machine/placement.h"

/* online CPUs 0, 2, 3, 5 (a hole, as after a hotplug) of a machine that
 * may have 0-7: a fake sysfs, so the lists parse on any machine */
static const int online[] = {0, 2, 3, 5};
static char root[64];

static int fake_sysfs(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/dbscale-test-placement-XXXXXX");
    if (!mkdtemp(root))
        return -1;
    char path[512];
    snprintf(path, sizeof path,
             "mkdir -p %s/devices/system/cpu && echo 0-7 > "
             "%s/devices/system/cpu/possible && echo 0,2-3,5 > "
             "%s/devices/system/cpu/online",
             root, root, root);
    if (system(path) != 0)
        return -1;
    cpulist_set_sysfs(root);
    return 0;
}

static int real_sysfs(void **state)
{
    (void)state;
    cpulist_set_sysfs(NULL);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static void client_lists(void **state)
{
    (void)state;
    static const struct {
        const char *spec;
        int k;
        const char *cli;
        int shared; /* -1: not asked */
    } cases[] =
        {
            {"same", 2, "0,2", 1},     {"rest", 2, "3,5", 0},
            {"rest", 4, "0,2-3,5", 1}, /* every CPU held: rest shares the server's */
            {"5", 2, "5", 0},          {"2,5", 2, "2,5", 1},
            {NULL, 2, "", 1},          {"", 1, "", -1},
        };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cli[64];
        int shared = -1;
        placement_client(cases[i].spec, online, 4, cases[i].k, cli, sizeof cli, &shared);
        assert_string_equal(cli, cases[i].cli);
        if (cases[i].shared >= 0)
            assert_int_equal(shared, cases[i].shared);
    }
}

static void pin_and_back(void **state)
{
    (void)state;
    cpu_set_t before, during, after;
    assert_int_equal(sched_getaffinity(0, sizeof before, &before), 0);
    int first = -1;
    for (int c = 0; c < CPU_SETSIZE && first < 0; c++)
        if (CPU_ISSET(c, &before))
            first = c;
    char list[16];
    snprintf(list, sizeof list, "%d", first);
    struct cpulist old;
    assert_int_equal(placement_pin_self(list, &old), 1);
    assert_int_equal(sched_getaffinity(0, sizeof during, &during), 0);
    assert_int_equal(CPU_COUNT(&during), 1);
    assert_true(CPU_ISSET(first, &during));
    placement_unpin_self(&old);
    assert_int_equal(sched_getaffinity(0, sizeof after, &after), 0);
    assert_true(CPU_EQUAL(&before, &after));
    /* nothing to pin to, or no list: not pinned, nothing to restore */
    assert_int_equal(placement_pin_self(NULL, &old), 0);
    assert_int_equal(placement_pin_self("not-a-list", &old), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(client_lists, fake_sysfs, real_sysfs),
        cmocka_unit_test(pin_and_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
