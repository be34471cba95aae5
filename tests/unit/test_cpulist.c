/*
 * test_cpulist.c - the one CPU-set type and its one parser, sized from the
 * machine. A fake sysfs tree (cpulist_set_sysfs) describes machines of 256,
 * 1024 and 4096 CPUs: lists past the old 64 and CPU_SETSIZE ceilings parse,
 * format and read back; ids the machine does not have are refused by name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/cpulist.h"
#include "micro/micro.h"

static char root[256];

static void put(const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A fake /sys whose devices/system/cpu says 0..n-1 are possible and online. */
static void fake_machine(int n)
{
    char path[512], list[64];
    snprintf(root, sizeof root, "/tmp/dbscale-sysfs.%d", (int)getpid());
    const char *dirs[] = {"", "/devices", "/devices/system", "/devices/system/cpu"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s%s", root, dirs[i]);
        assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
    }
    snprintf(list, sizeof list, "0-%d\n", n - 1);
    put("devices/system/cpu/possible", list);
    put("devices/system/cpu/online", list);
    cpulist_set_sysfs(root);
}

static int teardown(void **state)
{
    (void)state;
    char path[512];
    const char *files[] = {"devices/system/cpu/possible", "devices/system/cpu/online"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        unlink(path);
    }
    const char *dirs[] = {"/devices/system/cpu", "/devices/system", "/devices", ""};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s%s", root, dirs[i]);
        rmdir(path);
    }
    cpulist_set_sysfs(NULL);
    return 0;
}

static void round_trip(const char *in, int count, const char *want)
{
    struct cpulist l;
    char buf[256], err[256];
    assert_int_equal(cpulist_init(&l), 0);
    assert_int_equal(cpulist_parse(&l, in, 0, err, sizeof err), count);
    if (count >= 0) {
        cpulist_format(&l, buf, sizeof buf);
        assert_string_equal(buf, want);
        assert_int_equal(cpulist_count(&l), count);
    }
    cpulist_free(&l);
}

static void machine_of(int n)
{
    char all[32], over[32], err[256];
    fake_machine(n);
    assert_int_equal(cpulist_possible(), n);
    snprintf(all, sizeof all, "0-%d", n - 1);
    round_trip(all, n, all);
    round_trip("0-64", 65, "0-64");
    snprintf(over, sizeof over, "0,%d", n - 1);
    round_trip(over, 2, over);

    struct cpulist l;
    assert_int_equal(cpulist_init(&l), 0);
    assert_true(cpulist_ncpus(&l) >= n);
    snprintf(over, sizeof over, "0-%d", n);
    assert_int_equal(cpulist_parse(&l, over, 0, err, sizeof err), -1);
    char want[64];
    snprintf(want, sizeof want, "CPU %d does not exist", n);
    assert_non_null(strstr(err, want));
    assert_int_equal(cpulist_online(&l, err, sizeof err), n);
    int seen = 0, last = -1;
    for (int c = cpulist_next(&l, 0); c >= 0; c = cpulist_next(&l, c + 1)) {
        assert_true(c > last);
        last = c;
        seen++;
    }
    assert_int_equal(seen, n);
    assert_int_equal(last, n - 1);
    int *ids = NULL;
    assert_int_equal(cpulist_ids(&l, &ids), n);
    assert_int_equal(ids[n - 1], n - 1);
    free(ids);
    cpulist_free(&l);
}

static void test_256(void **state)
{
    (void)state;
    machine_of(256);
}

static void test_1024(void **state)
{
    (void)state;
    machine_of(1024);
}

/* Past glibc's CPU_SETSIZE (1024): only a set sized from the machine holds it. */
static void test_4096(void **state)
{
    (void)state;
    machine_of(4096);
}

static void test_malformed(void **state)
{
    (void)state;
    fake_machine(8);
    round_trip("0-3,6", 5, "0-3,6");
    round_trip(" 1,0\n", 2, "0-1");
    round_trip("3,1-2,2", 3, "1-3");
    const char *bad[] = {
        "", "banana", "1-0", "1,,2", "-1", "1-", ",1", "0-3x", "99999999999999999999", "9999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        round_trip(bad[i], -1, NULL);
    struct cpulist l;
    char err[256];
    assert_int_equal(cpulist_init(&l), 0);
    assert_int_equal(cpulist_parse(&l, "banana", 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "banana"));
    assert_int_equal(cpulist_parse(&l, "\n", CPULIST_EMPTY_OK, err, sizeof err), 0);
    assert_int_equal(cpulist_parse(&l, NULL, 0, err, sizeof err), -1);
    char buf[8];
    cpulist_format(&l, buf, sizeof buf);
    assert_string_equal(buf, "");
    for (int c = 0; c <= 10; c += 2)
        cpulist_add(&l, c);
    cpulist_format(&l, buf, sizeof buf); /* truncated, but terminated */
    assert_true(strlen(buf) < sizeof buf);
    cpulist_free(&l);
}

/* A user's list (--client-cpus): well formed, existing and online CPUs only. */
static void test_check_online(void **state)
{
    (void)state;
    char err[256];
    fake_machine(8);
    put("devices/system/cpu/online", "0-3\n");
    assert_int_equal(cpulist_check_online("0-3", err, sizeof err), 4);
    assert_int_equal(cpulist_check_online("5", err, sizeof err), -1);
    assert_non_null(strstr(err, "CPU 5 is not online (online: 0-3)"));
    assert_int_equal(cpulist_check_online("9999", err, sizeof err), -1);
    assert_non_null(strstr(err, "CPU 9999 does not exist"));
    assert_int_equal(cpulist_check_online("banana", err, sizeof err), -1);
    assert_non_null(strstr(err, "not a CPU list"));
    assert_int_equal(cpulist_check_online("", err, sizeof err), -1);
}

/* The micro harness places task i on the i-th CPU of its list, wrapping. */
static void test_micro_placement(void **state)
{
    (void)state;
    fake_machine(1024);
    char err[256];
    int *ids = NULL;
    int n = micro_cpus("0-1023", &ids, err, sizeof err);
    assert_int_equal(n, 1024);
    assert_int_equal(micro_task_cpu(ids, n, 0), 0);
    assert_int_equal(micro_task_cpu(ids, n, 1023), 1023);
    assert_int_equal(micro_task_cpu(ids, n, 1024), 0);
    free(ids);
    ids = NULL;
    assert_int_equal(micro_cpus("0,1024", &ids, err, sizeof err), -1);
    assert_non_null(strstr(err, "--cpus"));
    free(ids);
}

/* --tasks=all on a machine past the old 4096-task limit: one task a CPU. */
static void test_micro_all_tasks(void **state)
{
    (void)state;
    fake_machine(8192);
    struct micro_plan pl;
    char err[256];
    char *words[1] = {"getppid1"};
    if (micro_plan_make(&pl, words, 1, "0-8191", "1,all", "process", err, sizeof err) < 0)
        fail_msg("%s", err);
    assert_int_equal(pl.ncpus, 8192);
    assert_int_equal(pl.ntasks, 2);
    assert_int_equal(pl.tasks[1], 8192);
}

/* A list's count from its text alone, whatever the machine. */
static void test_text_count(void **state)
{
    (void)state;
    assert_int_equal(cpulist_text_count("0-3,6"), 5);
    assert_int_equal(cpulist_text_count("447"), 1);
    assert_int_equal(cpulist_text_count("0-447"), 448);
    assert_int_equal(cpulist_text_count(""), 0);
    assert_int_equal(cpulist_text_count("3-1"), 0);
    assert_int_equal(cpulist_text_count("0,x"), 0);
    assert_int_equal(cpulist_text_count("-1"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_count),
        cmocka_unit_test_teardown(test_256, teardown),
        cmocka_unit_test_teardown(test_1024, teardown),
        cmocka_unit_test_teardown(test_4096, teardown),
        cmocka_unit_test_teardown(test_malformed, teardown),
        cmocka_unit_test_teardown(test_check_online, teardown),
        cmocka_unit_test_teardown(test_micro_placement, teardown),
        cmocka_unit_test_teardown(test_micro_all_tasks, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
