/*
 * baseline.c - the kernel baseline a sweep runs at each CPU count: micro
 * tests (micro.h) and the file create/remove benchmark (fsbench.h), held to
 * the same CPUs the server gets, so that a database curve that bends can be
 * told apart from a kernel that bends. Results land beside results.csv in
 * micro.csv and fs.csv, labelled with the sweep's variant. Prints nothing:
 * errors come back in err, and the verb says what is running.
 */
#include "sweep/baseline.h"

#include "core/cpulist.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/benchcsv.h"
#include "machine/cpuset.h"
#include "machine/placement.h"
#include "micro/fsbench.h"
#include "micro/micro.h"
#include "core/parse.h"
#include "core/util.h"

static const char DEFAULT_BASELINE[] =
    "getppid1,open1,open3,pipe1,page_fault1,lock2,pthread_mutex1,fs";

/* The file create/remove benchmark on the same k CPUs: FS_FILES files,
 * FS_PASSES passes, k tasks, rows added to DIR/fs.csv (benchcsv.c's). */
#define FS_FILES  2000
#define FS_PASSES 3

static int run_fs(const int *cpus, int k, const char *dir, const char *variant,
                  volatile sig_atomic_t *stop, char *err, size_t errlen)
{
    struct cpulist old, set;
    if (cpulist_init(&set) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < k; i++)
        cpulist_add(&set, cpus[i]);
    int pinned = placement_pin_self_to(&set, &old); /* the tasks fork from here */
    struct sbuf b = {0};
    struct fs_config fc = {.tasks = k, .shared_dir = 1};
    int rc = 0;
    for (int pass = 1; pass <= FS_PASSES && !*stop; pass++) {
        struct fs_result r;
        memset(&r, 0, sizeof r);
        fs_run_pass(&fc, FS_FILES, pass, &r);
        struct fscsv_row row = {.files = FS_FILES,
                                .pass = pass,
                                .tasks = k,
                                .cpus = k,
                                .create_s = r.create_s,
                                .create_per_s = r.create_s > 0 ? FS_FILES / r.create_s : 0,
                                .remove_s = r.remove_s,
                                .remove_per_s = r.remove_s > 0 ? FS_FILES / r.remove_s : 0,
                                .shared_dir = fc.shared_dir,
                                .size = (long long)fc.size,
                                .fsync = fc.fsync};
        snprintf(row.error, sizeof row.error, "%s", r.error);
        snprintf(row.fs_type, sizeof row.fs_type, "%s", micro_fs_type(micro_scratch_base(NULL)));
        snprintf(row.variant, sizeof row.variant, "%s", variant);
        fscsv_format(&b, &row);
    }
    if (fscsv_append(dir, &b, err, errlen) < 0)
        rc = -1;
    sbuf_free(&b);
    if (pinned)
        placement_unpin_self(&old);
    cpulist_free(&set);
    return rc;
}

int baseline_check(const char *list, char *err, size_t errlen)
{
    if (!list || !strcmp(list, "default") || !strcmp(list, "on") || !strcmp(list, "none") ||
        !strcmp(list, "off"))
        return 0;
    if (parse_list_has_empty(list)) {
        snprintf(err, errlen, "--baseline: '%s' has an empty test name", list);
        return -1;
    }
    char copy[512];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (strcmp(t, "fs") != 0 && !micro_find(t)) {
            snprintf(err, errlen,
                     "--baseline: unknown test '%s' (dbscale micro --list shows them; fs is the "
                     "file benchmark)",
                     t);
            return -1;
        }
    return 0;
}

int baseline_enabled(const char *list)
{
    return list && *list && strcmp(list, "none") != 0 && strcmp(list, "off") != 0;
}

const char *baseline_list(const char *list)
{
    return list && (!strcmp(list, "default") || !strcmp(list, "on")) ? DEFAULT_BASELINE : list;
}

int baseline_run(const char *list, const int *cpus, int k, const char *dir, const char *variant,
                 volatile sig_atomic_t *stop, char *err, size_t errlen)
{
    if (!list || !*list || !strcmp(list, "none") || !strcmp(list, "off"))
        return 0;
    if (!strcmp(list, "default") || !strcmp(list, "on"))
        list = DEFAULT_BASELINE;
    /* "fs" in the list is the file create/remove benchmark; the rest are
     * micro tests */
    char tests[512] = "";
    int fs = 0;
    char copy[512];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "fs"))
            fs = 1;
        else
            snprintf(tests + strlen(tests), sizeof tests - strlen(tests), "%s%s",
                     tests[0] ? "," : "", t);
    }
    char cl[8192];
    struct cpulist set;
    if (cpulist_init(&set) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < k; i++)
        cpulist_add(&set, cpus[i]);
    cpulist_format(&set, cl, sizeof cl);
    cpulist_free(&set);
    char tl[32];
    if (k > 1)
        snprintf(tl, sizeof tl, "1,%d", k);
    else
        snprintf(tl, sizeof tl, "1");
    /* 0 ok; 1 or 2 a failure or a bad test list (err says which); 128+sig
     * when interrupted, which the sweep's own handler has seen as well */
    int mr = tests[0] ? micro_run_set(tests, cl, tl, "both", dir, variant, err, errlen) : 0;
    if (mr != 0 && !*stop) {
        if (!err[0])
            snprintf(err, errlen, "kernel baseline '%s' failed", tests);
        return -1;
    }
    return fs && !*stop ? run_fs(cpus, k, dir, variant, stop, err, errlen) : 0;
}
