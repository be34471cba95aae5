/*
 * test_micro.c - the kernel baseline's own checks: every syscall test runs
 * and counts work in both modes with 1 and 2 tasks, the harness's rates agree
 * with work timed outside it, failures become N/A with the call named, no
 * task or file outlives a point (even on SIGTERM), and fsbench makes exactly
 * the files it says. No tight timing: this runs on busy shared machines.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "machine/kernelinfo.h"
#include "micro/fsbench.h"
#include "micro/micro.h"
#include "core/signals.h"
#include "micro/spin.h"

static char scratch[256];

static int make_scratch(void **state)
{
    (void)state;
    snprintf(scratch, sizeof scratch, "/tmp/test_micro.XXXXXX");
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

static void assert_no_children(void)
{
    errno = 0;
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
    assert_int_equal(errno, ECHILD);
}

/* Short points: test_every_test_counts runs 212 of them, and its time is
 * mostly these windows. /proc/stat still moves (100 ticks a second on each
 * CPU), and a point that counted nothing runs again, longer. */
static struct micro_config quick(void)
{
    struct micro_config c;
    micro_config_default(&c);
    c.dir = scratch;
    c.warmup = 0.005;
    c.samples = 2;
    c.interval = 0.01;
    return c;
}

static void test_registry(void **state)
{
    (void)state;
    int visible = 0;
    for (int i = 0; micro_tests[i]; i++) {
        const struct micro_test *t = micro_tests[i];
        assert_non_null(t->loop);
        assert_non_null(strstr(t->desc, "unit:"));
        assert_ptr_equal(micro_find(t->name), t);
        visible += !t->hidden;
    }
    assert_int_equal(visible, 74);
    assert_null(micro_find("nosuch"));
}

static void test_cpus(void **state)
{
    (void)state;
    int *ids = NULL;
    char err[128];
    assert_int_equal(micro_cpus("0", &ids, err, sizeof err), 1);
    free(ids);
    if (sysconf(_SC_NPROCESSORS_ONLN) > 1) {
        assert_int_equal(micro_cpus("1,0-1", &ids, err, sizeof err), 2);
        assert_int_equal(ids[1], 1);
        free(ids);
    }
    assert_int_equal(micro_cpus("0,999", &ids, err, sizeof err), -1);
    assert_non_null(strstr(err, "CPU 999"));
    assert_int_equal(micro_cpus("1-0", &ids, err, sizeof err), -1);
    assert_int_equal(micro_cpus("x", &ids, err, sizeof err), -1);
    assert_true(micro_cpus(NULL, &ids, err, sizeof err) >= 1);
    free(ids);
}

/* Every test, 1 and 2 tasks as processes and 2 as threads: work counted, or
 * N/A with a reason. (One thread in its host is the two-thread path with
 * one slot; leaving it out takes a quarter of this list's points.) */
static void test_every_test_counts(void **state)
{
    (void)state;
    struct micro_config c = quick();
    int na = 0;
    for (int i = 0; micro_tests[i]; i++) {
        if (micro_tests[i]->hidden)
            continue;
        for (const char *m = "pt"; *m; m++)
            for (int tasks = *m == 't' ? 2 : 1; tasks <= 2; tasks++) {
                struct micro_point p;
                /* A loaded machine can hold a task off its CPU for a whole
                 * short sample: a point that counted nothing runs again, longer. */
                struct micro_config again = c;
                for (int try = 0; try < 3; try++, again.interval *= 4) {
                    if (try > 0)
                        micro_point_free(&p);
                    assert_int_equal(micro_run_point(micro_tests[i], *m, tasks, &again, &p), 0);
                    if (p.error[0] || p.iterations > 0)
                        break;
                }
                if (p.error[0]) {
                    print_message("%s %c %d: %s\n", p.test, *m, tasks, p.error);
                    assert_memory_equal(p.error, "N/A: ", 5);
                    na++;
                } else {
                    assert_int_equal(p.nsamples, 2);
                    assert_true(p.iterations > 0);
                    assert_true(p.ops > 0 && p.min <= p.ops && p.ops <= p.max);
                    assert_true(p.total_jiffies > 0 && p.idle >= 0 && p.idle <= 100);
                }
                micro_point_free(&p);
                assert_no_children();
                assert_int_equal(entries(scratch), 0);
            }
    }
    assert_int_equal(na, 0); /* nothing is N/A on Linux with 2 tasks */
}

/* The known-rate test, checked without asserting any speed (the machine may
 * be loaded): the work and the time are measured over the same samples, so
 * the overall rate, iterations / measured time, is a time-weighted mean of
 * the sample rates and must lie between the slowest and the fastest sample;
 * and measured time is never shorter than the samples asked for. */
static void test_spin_rate(void **state)
{
    (void)state;
    struct micro_config c = quick();
    c.samples = 5;
    c.interval = 0.1;
    struct micro_point p;
    assert_int_equal(micro_run_point(micro_find("spin"), 'p', 1, &c, &p), 0);
    assert_string_equal(p.error, "");
    assert_true(p.iterations > 0);
    assert_true(p.elapsed_s >= c.samples * c.interval * 0.99);
    double overall = (double)p.iterations / p.elapsed_s, lo = p.samples[0], hi = p.samples[0];
    for (int i = 1; i < p.nsamples; i++) {
        lo = p.samples[i] < lo ? p.samples[i] : lo;
        hi = p.samples[i] > hi ? p.samples[i] : hi;
    }
    print_message("spin: %.0f/s overall, samples %.0f..%.0f\n", overall, lo, hi);
    assert_true(overall >= lo * 0.999 && overall <= hi * 1.001);
    micro_point_free(&p);
}

/* 10 ms per iteration: never more than 100/s a task (a sleep cannot end
 * early, so a higher rate would mean the harness undercounts time). An
 * upper bound: no slow machine can break it. */
static void test_sleep_rate(void **state)
{
    (void)state;
    struct micro_config c = quick();
    c.samples = 3;
    c.interval = 0.2;
    for (const char *m = "pt"; *m; m++)
        for (int tasks = 1; tasks <= 2; tasks++) {
            struct micro_point p;
            assert_int_equal(micro_run_point(micro_find("sleep"), *m, tasks, &c, &p), 0);
            assert_string_equal(p.error, "");
            print_message("sleep %c %d: %.1f/s\n", *m, tasks, p.ops);
            assert_true(p.ops > 0 && p.ops < 101.0 * tasks);
            micro_point_free(&p);
        }
}

static int fail_loop(struct micro_task *t, volatile uint64_t *it)
{
    (void)it;
    char path[512];
    micro_path(t, path, sizeof path, "missing.%d");
    if (access(path, F_OK) < 0)
        return micro_fail(t, "access");
    return -1;
}

static int fail_setup(struct micro_task *t)
{
    return t->id == 1 ? micro_na(t, "not here") : 0;
}

static int crash_loop(struct micro_task *t, volatile uint64_t *it)
{
    (void)t;
    (*it)++;
    raise(SIGSEGV);
    return 0;
}

static void test_failures_are_reported(void **state)
{
    (void)state;
    const struct micro_test failing = {"failing", "unit: none", 1, NULL, NULL, fail_loop};
    const struct micro_test half = {"half", "unit: none", 1, NULL, fail_setup, fail_loop};
    const struct micro_test crash = {"crash", "unit: none", 1, NULL, NULL, crash_loop};
    struct micro_config c = quick();
    struct micro_point p;
    for (const char *m = "pt"; *m; m++) {
        assert_int_equal(micro_run_point(&failing, *m, 2, &c, &p), 0);
        assert_string_equal(p.error, "access: No such file or directory");
        assert_int_equal(p.nsamples, 0);
        micro_point_free(&p);
        assert_int_equal(micro_run_point(&half, *m, 2, &c, &p), 0);
        assert_true(strcmp(p.error, "N/A: not here") == 0 || strncmp(p.error, "access", 6) == 0);
        micro_point_free(&p);
        assert_no_children();
    }
    assert_int_equal(micro_run_point(&crash, 'p', 1, &c, &p), 0);
    assert_non_null(strstr(p.error, "task died"));
    micro_point_free(&p);
    assert_no_children();
    assert_int_equal(entries(scratch), 0);
}

static void *send_term(void *arg)
{
    (void)arg;
    struct timespec ts = {0, 400 * 1000 * 1000};
    nanosleep(&ts, NULL);
    kill(getpid(), SIGTERM);
    return NULL;
}

/* SIGTERM mid-point: the run stops, tasks are reaped, scratch is gone. The
 * point would run 10 s (100 samples of 0.1 s): under 5 s says the signal
 * stopped it, a bound at the failure's size, not a speed. */
static void test_interrupt_cleans_up(void **state)
{
    (void)state;
    struct micro_config c = quick();
    c.samples = 100;
    c.interval = 0.1;
    for (const char *m = "pt"; *m; m++) {
        pthread_t th;
        struct micro_point p;
        pthread_create(&th, NULL, send_term, NULL);
        uint64_t t0 = now_ns();
        assert_int_equal(micro_run_point(micro_find("unlink1"), *m, 2, &c, &p), -1);
        assert_int_equal(signals_caught(), SIGTERM);
        signals_reset();
        assert_true(now_ns() - t0 < 5000000000ull);
        pthread_join(th, NULL);
        micro_point_free(&p);
        assert_no_children();
        assert_int_equal(entries(scratch), 0);
    }
}

static void test_csv(void **state)
{
    (void)state;
    double s[2] = {10, 20};
    struct micro_point ok = {.test = "getppid1",
                             .mode = 'p',
                             .tasks = 2,
                             .cpus = 2,
                             .ops = 15,
                             .min = 10,
                             .max = 20,
                             .cv = 47.14,
                             .nsamples = 2,
                             .samples = s,
                             .fs_type = "ext4",
                             .idle = 37.5};
    struct micro_point bad = {.test = "open1",
                              .mode = 't',
                              .tasks = 1,
                              .cpus = 2,
                              .fs_type = "tmpfs",
                              .error = "open: No such file, really"};
    struct sbuf b = {0};
    micro_csv_row(&b, &ok, "smp-k2");
    micro_csv_row(&b, &bad, NULL);
    /* each row says which boot measured it: this one's */
    char want[512];
    snprintf(want, sizeof want,
             "getppid1,p,2,2,15.0,10.0,20.0,47.14,10.0;20.0,ext4,,smp-k2,37.5,%s\n"
             "open1,t,1,2,,,,,,tmpfs,\"open: No such file, really\",,,%s\n",
             kernelinfo_boot_id(), kernelinfo_boot_id());
    assert_int_equal((int)strlen(kernelinfo_boot_id()), 36);
    assert_string_equal(b.s, want);
    char dir[300], path[320], buf[512] = "";
    snprintf(dir, sizeof dir, "%s/out", scratch);
    char err[256];
    assert_int_equal(micro_csv_append(dir, &b, err, sizeof err), 0);
    assert_int_equal(micro_csv_append(dir, &b, err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/micro.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int lines = 0, headers = 0;
    while (fgets(buf, sizeof buf, f)) {
        lines++;
        headers += strcmp(buf, MICRO_CSV_HEADER "\n") == 0;
    }
    fclose(f);
    assert_int_equal(lines, 5);
    assert_int_equal(headers, 1);
    sbuf_free(&b);
    micro_rmtree(dir);
}

/* The sweep's entry: rows appended to DIR/micro.csv, labelled with the variant. */
static void test_run_set(void **state)
{
    (void)state;
    char dir[300], path[320], err[512], line[512];
    snprintf(dir, sizeof dir, "%s/set", scratch);
    for (int i = 0; i < 2; i++)
        assert_int_equal(
            micro_run_set("getppid1", "0", "1", "process", dir, "smp-k1", err, sizeof err), 0);
    snprintf(path, sizeof path, "%s/micro.csv", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, MICRO_CSV_HEADER "\n");
    for (int i = 0; i < 2; i++) {
        assert_non_null(fgets(line, sizeof line, f));
        assert_memory_equal(line, "getppid1,p,1,1,", 15);
        /* no error, then the variant, then the idle % (0..100) */
        char *v = strstr(line, ",,smp-k1,");
        assert_non_null(v);
        double idle = strtod(v + strlen(",,smp-k1,"), NULL);
        assert_true(idle >= 0 && idle <= 100);
    }
    assert_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_int_equal(micro_run_set("nosuch", NULL, "1", "both", dir, "", err, sizeof err), 2);
    assert_non_null(strstr(err, "getppid1"));
    assert_int_equal(micro_run_set("getppid1", NULL, "0", "both", dir, "", err, sizeof err), 2);
    micro_rmtree(dir);
    assert_no_children();
}

static void *send_term_late(void *arg)
{
    (void)arg;
    struct timespec ts = {1, 600 * 1000 * 1000};
    nanosleep(&ts, NULL);
    kill(getpid(), SIGTERM);
    return NULL;
}

/* A signal during micro_run_set stops it and stays in the signal room, so
 * the caller (the sweep) sees which one came and exits 128 + it. */
static void test_run_set_passes_signal_on(void **state)
{
    (void)state;
    signals_reset();
    char dir[300], err[256];
    snprintf(dir, sizeof dir, "%s/sig", scratch);
    /* The library returns the story in err and prints nothing: the sweep's
     * verb decides what the terminal shows. */
    char log[320];
    snprintf(log, sizeof log, "%s/stderr.log", scratch);
    fflush(stderr);
    int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(saved >= 0 && fd >= 0);
    dup2(fd, 2);
    close(fd);
    pthread_t th;
    pthread_create(&th, NULL, send_term_late, NULL);
    int rc = micro_run_set("getppid1,pipe1", "0", "1", "both", dir, "", err, sizeof err);
    pthread_join(th, NULL);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    struct stat st;
    assert_int_equal(stat(log, &st), 0);
    unlink(log);
    assert_int_equal(st.st_size, 0);
    assert_int_equal(rc, 128 + SIGTERM);
    assert_int_equal(signals_caught(), SIGTERM);
    assert_int_equal(signals_exit_code(), 143);
    assert_non_null(strstr(err, "interrupted"));
    signals_reset();
    assert_no_children();
    micro_rmtree(dir);
}

struct seen {
    int files;
};

/* Count the files on disk between the create and the remove phase. */
static void count_files(const char *dir, int files, void *arg)
{
    struct seen *s = arg;
    (void)files;
    DIR *d = opendir(dir);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        char sub[4400];
        struct stat st;
        if (e->d_name[0] == '.')
            continue;
        snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
        assert_int_equal(lstat(sub, &st), 0);
        if (S_ISDIR(st.st_mode))
            s->files += entries(sub);
        else
            s->files++;
    }
    closedir(d);
}

static void test_fsbench_files_on_disk(void **state)
{
    (void)state;
    for (int shared = 0; shared <= 1; shared++)
        for (int tasks = 1; tasks <= 3; tasks += 2) {
            struct seen s = {0};
            struct fs_config c = {.dir = scratch,
                                  .size = 10,
                                  .tasks = tasks,
                                  .shared_dir = shared,
                                  .after_create = count_files,
                                  .hook_arg = &s};
            struct fs_result r;
            assert_int_equal(fs_run_pass(&c, 1001, 1, &r), 0);
            assert_string_equal(r.error, "");
            assert_int_equal(s.files, 1001);
            assert_true(r.create_s > 0 && r.remove_s > 0);
            assert_int_equal(entries(scratch), 0);
            assert_no_children();
        }
    char hms[32];
    fs_hms(3723.4567, hms, sizeof hms);
    assert_string_equal(hms, "01:02:03.457");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_cpus),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_failures_are_reported),
        cmocka_unit_test(test_interrupt_cleans_up),
        cmocka_unit_test(test_spin_rate),
        cmocka_unit_test(test_sleep_rate),
        cmocka_unit_test(test_fsbench_files_on_disk),
        cmocka_unit_test(test_run_set),
        cmocka_unit_test(test_run_set_passes_signal_on),
        cmocka_unit_test(test_every_test_counts),
    };
    return cmocka_run_group_tests(tests, make_scratch, remove_scratch);
}
