/*
 * test_whycsv.c - the why files round-trip through their one owner: what
 * whycsv_write wrote (a variant with a comma and a quote included),
 * whycsv_read gives back; meta.json's description names every column of
 * every file; a file without a key column or with a bad number is refused
 * naming its line; a level's file name never leaves profiles/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/whycsv.h"

static struct why_key key(int threads, int repeat)
{
    struct why_key k = {.cpus = 2, .threads = threads, .repeat = repeat};
    snprintf(k.variant, sizeof k.variant, "smp-k2, \"x\"");
    return k;
}

static void test_round_trip(void **st)
{
    (void)st;
    char dir[] = "/tmp/test-whycsv-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct whycsv w = {0}, back = {0};
    for (int i = 0; i < 3; i++) {
        struct why_cpu c = {.k = key(4, 1), .cpu = i};
        for (int f = 0; f < WHY_NCPUF; f++)
            c.s[f] = 0.25 * f + i, c.us_txn[f] = 100.5 * f;
        whycsv_add_cpu(&w, &c);
    }
    struct why_sched s = {.k = key(8, 2),
                          .tasks = 12,
                          .voluntary = 1000,
                          .user_s = 1.5,
                          .runq_us_txn = 42.5,
                          .migrations = NAN, /* not measured: no SCHED_DEBUG */
                          .migrations_txn = NAN};
    whycsv_add_sched(&w, &s);
    struct why_wait x = {.k = key(8, 0),
                         .count = 300,
                         .wait_s = 2.5,
                         .share = 0.6,
                         .us_txn = 1234.5,
                         .sampler_hz = 99.5};
    snprintf(x.source, sizeof x.source, "pg_wait_sampling");
    snprintf(x.event, sizeof x.event, "Lock:transactionid");
    snprintf(x.cls, sizeof x.cls, "lock");
    whycsv_add_wait(&w, &x);
    struct why_prof p = {.k = key(8, 0), .samples = 500, .kernel_samples = 120, .txns = 900};
    snprintf(p.role, sizeof p.role, "knee");
    snprintf(p.folded, sizeof p.folded, "profiles/a.folded");
    whycsv_add_prof(&w, &p);
    assert_int_equal(whycsv_write(dir, &w), 0);
    char err[600] = "";
    assert_int_equal(whycsv_read(dir, &back, err, sizeof err), 0);
    assert_int_equal(back.ncpu, 3);
    /* "not measured" survives the round trip as an empty cell, never 0 */
    assert_true(isnan(back.sched[0].migrations) && isnan(back.sched[0].migrations_txn));
    assert_true(back.sched[0].runq_us_txn == 42.5);
    assert_int_equal(back.nsched, 1);
    assert_int_equal(back.nwait, 1);
    assert_int_equal(back.nprof, 1);
    assert_string_equal(back.cpu[2].k.variant, "smp-k2, \"x\"");
    assert_int_equal(back.cpu[2].cpu, 2);
    assert_true(back.cpu[2].s[WHY_IDLE] == 0.25 * WHY_IDLE + 2);
    assert_true(back.cpu[1].us_txn[WHY_STEAL] == 100.5 * WHY_STEAL);
    assert_int_equal(back.sched[0].tasks, 12);
    assert_true(back.sched[0].user_s == 1.5 && back.sched[0].runq_us_txn == 42.5);
    assert_int_equal(back.wait[0].k.repeat, 0);
    assert_string_equal(back.wait[0].event, "Lock:transactionid");
    assert_true(back.wait[0].us_txn == 1234.5 && back.wait[0].sampler_hz == 99.5);
    assert_string_equal(back.prof[0].role, "knee");
    assert_string_equal(back.prof[0].folded, "profiles/a.folded");
    assert_true(back.prof[0].kernel_samples == 120);

    /* meta.json's description covers every column of every file */
    json_t *m = whycsv_meta();
    const char *files[] = {"cpusplit.csv", "sched.csv", "waits.csv", "profile.csv"};
    for (int i = 0; i < 4; i++) {
        char path[600], line[4096];
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        assert_non_null(fgets(line, sizeof line, f));
        fclose(f);
        line[strcspn(line, "\n")] = '\0';
        json_t *cols = json_object_get(m, files[i]);
        assert_non_null(cols);
        for (char *sv = NULL, *c = strtok_r(line, ",", &sv); c; c = strtok_r(NULL, ",", &sv)) {
            json_t *doc = json_object_get(cols, c);
            if (!doc)
                fail_msg("%s: column %s is not described", files[i], c);
            assert_true(strlen(json_string_value(doc)) > 5);
        }
    }
    json_decref(m);

    /* a bad file names its line; a file without the key is refused */
    char path[600];
    snprintf(path, sizeof path, "%s/waits.csv", dir);
    FILE *f = fopen(path, "w");
    fputs("variant,cpus,threads,repeat,event,us_txn\nup,1,1,1,CPU,5\nup,1,1,1,CPU,abc\n", f);
    fclose(f);
    struct whycsv bad = {0};
    assert_int_equal(whycsv_read(dir, &bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "waits.csv:3"));
    whycsv_free(&bad);
    f = fopen(path, "w");
    fputs("variant,cpus,event\nup,1,CPU\n", f);
    fclose(f);
    assert_int_equal(whycsv_read(dir, &bad, err, sizeof err), -1);
    assert_non_null(strstr(err, "no threads column"));
    whycsv_free(&bad);
    whycsv_free(&w);
    whycsv_free(&back);
    const char *names[] = {"cpusplit.csv", "sched.csv", "waits.csv", "profile.csv"};
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
}

static void test_level_name(void **st)
{
    (void)st;
    char name[128];
    struct why_key k = {.cpus = 4, .threads = 16, .repeat = 3};
    snprintf(k.variant, sizeof k.variant, "../etc/x y");
    whycsv_level_name(name, sizeof name, &k);
    assert_string_equal(name, ".._etc_x_y-c4-t16-r3");
    assert_null(strchr(name, '/'));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_level_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
