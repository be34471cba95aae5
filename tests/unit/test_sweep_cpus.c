/*
 * test_sweep_cpus.c - the sweep's plan on big machines. A fake sysfs tree
 * describes 256 and 1024 online CPUs; the plan is built from the online set
 * read through the one CPU-set type, with --cpus=1,2,4,...,all and
 * --threads=1-4k:x2. No ceiling of 64 (or of CPU_SETSIZE) may show.
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
#include "sweep/plan.h"

static char root[256];

static void fake_machine(int n)
{
    char path[512], list[64];
    snprintf(root, sizeof root, "/tmp/dbscale-sysfs-plan.%d", (int)getpid());
    const char *dirs[] = {"", "/devices", "/devices/system", "/devices/system/cpu"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s%s", root, dirs[i]);
        assert_true(mkdir(path, 0755) == 0 || errno == EEXIST);
    }
    snprintf(list, sizeof list, "0-%d\n", n - 1);
    const char *files[] = {"possible", "online"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/devices/system/cpu/%s", root, files[i]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(list, f);
        fclose(f);
    }
    cpulist_set_sysfs(root);
}

static int teardown(void **state)
{
    (void)state;
    char path[512];
    const char *rel[] = {"/devices/system/cpu/possible", "/devices/system/cpu/online"};
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s%s", root, rel[i]);
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

/* 1,2,4,...,n,all: log2(n)+1 counts (all = n is the same count). */
static void plan_on(int n)
{
    fake_machine(n);
    struct cpulist on;
    char err[256], cpus[512] = "";
    assert_int_equal(cpulist_init(&on), 0);
    assert_int_equal(cpulist_online(&on, err, sizeof err), n);
    int *ids = NULL;
    assert_int_equal(cpulist_ids(&on, &ids), n);
    int counts = 0;
    for (int k = 1; k <= n; k *= 2, counts++)
        snprintf(cpus + strlen(cpus), sizeof cpus - strlen(cpus), "%d,", k);
    strcat(cpus, "all");

    struct sweep_plan p;
    memset(&p, 0, sizeof p);
    p.online = ids;
    p.nonline = n;
    assert_int_equal(sweep_plan_build(&p, "1-4k:x2", cpus, "interleaved", 1, err, sizeof err), 0);
    assert_int_equal(p.nk, counts);
    assert_int_equal(p.nskipped, 0);
    assert_int_equal(p.kcpus[p.nk - 1], n);
    assert_int_equal(p.maxthreads, 4LL * n);
    int levels = 0;
    for (int k = 0; k < p.nk; k++) {
        /* 1,2,4,...,4k: log2(4k)+1 levels */
        int want = 0;
        for (long long t = 1; t <= 4LL * p.kcpus[k]; t *= 2)
            want++;
        assert_int_equal(p.nthreads[k], want);
        assert_int_equal(p.threads[k][want - 1], 4LL * p.kcpus[k]);
        levels += want;
    }
    assert_int_equal(p.nlevels, levels);
    /* the last CPU count's level runs on every online CPU */
    assert_int_equal(p.online[p.kcpus[p.nk - 1] - 1], n - 1);
    sweep_plan_free(&p);
    free(ids);
    cpulist_free(&on);
}

static void test_256(void **state)
{
    (void)state;
    plan_on(256);
}

static void test_1024(void **state)
{
    (void)state;
    plan_on(1024);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_256, teardown),
        cmocka_unit_test_teardown(test_1024, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
