/*
 * test_cpuset.c - CPU lists, and each method held against a real forked
 * process with two threads: apply, read /proc back ourselves, verify, catch a
 * wrong list, close. Nothing is left behind: no cgroup, no narrowed mask.
 *
 * With DBSCALE_TEST_HOTPLUG=1 it runs only the hotplug tests instead (from
 * tests/integration/cpuset_hotplug.sh): CPUs really go offline, and a child
 * holding them offline is killed by SIGKILL/SIGINT/SIGTERM to its whole
 * process group, or by SIGKILL alone while a child it forked lives on; the
 * guardian must bring them back within a few seconds.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/cpulist.h"
#include "machine/cpuset.h"

/* A CPU set from a list (the one type and parser: cpulist.h). */
static struct cpulist set_of(const char *text)
{
    struct cpulist l;
    char e[160];
    assert_int_equal(cpulist_init(&l), 0);
    if (cpulist_parse(&l, text, 0, e, sizeof e) <= 0)
        fail_msg("'%s': %s", text, e);
    return l;
}

/* The online CPUs as a set, their count, and their list in all. */
static struct cpulist online_set(int *n, char *all, size_t len)
{
    struct cpulist l;
    char e[160];
    assert_int_equal(cpulist_init(&l), 0);
    *n = cpulist_online(&l, e, sizeof e);
    assert_true(*n >= 1);
    if (all)
        cpulist_format(&l, all, len);
    return l;
}

static void test_methods(void **state)
{
    (void)state;
    assert_int_equal(cpuset_method_parse("affinity"), CPU_AFFINITY);
    assert_int_equal(cpuset_method_parse("cpuset"), CPU_CPUSET);
    assert_int_equal(cpuset_method_parse("hotplug"), CPU_HOTPLUG);
    assert_int_equal(cpuset_method_parse("taskset"), -1);
    assert_int_equal(cpuset_method_parse(NULL), -1);
    assert_string_equal(cpuset_method_name(CPU_CPUSET), "cpuset");
}

/* Parsing and formatting CPU lists: test_cpulist.c (one parser, cpulist.h). */

static void test_online(void **state)
{
    (void)state;
    int n;
    struct cpulist l = online_set(&n, NULL, 0);
    assert_int_equal(n, (int)sysconf(_SC_NPROCESSORS_ONLN));
    cpulist_free(&l);
}

/* ---- a child process with a second thread ---- */

struct child {
    pid_t pid;
    int quit; /* write end; closing it ends the child */
};

static void *idle(void *arg)
{
    char ch;
    while (read(*(int *)arg, &ch, 1) > 0)
        ;
    return NULL;
}

static void child_start(struct child *k)
{
    int quit[2], ready[2];
    assert_int_equal(pipe(quit), 0);
    assert_int_equal(pipe(ready), 0);
    k->pid = fork();
    assert_true(k->pid >= 0);
    if (k->pid == 0) {
        close(quit[1]);
        close(ready[0]);
        pthread_t t;
        if (pthread_create(&t, NULL, idle, &quit[0]) != 0)
            _exit(1);
        if (write(ready[1], "r", 1) != 1)
            _exit(1);
        idle(&quit[0]);
        _exit(0);
    }
    close(quit[0]);
    close(ready[1]);
    char ch;
    assert_int_equal(read(ready[0], &ch, 1), 1);
    close(ready[0]);
    k->quit = quit[1];
}

static void child_stop(struct child *k)
{
    int st;
    close(k->quit);
    assert_int_equal(waitpid(k->pid, &st, 0), k->pid);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

/* Cpus_allowed_list of every task of pid, read here, not by the room; returns
 * the number of tasks (all must agree with want). */
static int check_tasks(pid_t pid, const char *want)
{
    char path[512], line[256];
    int n = 0;
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    assert_non_null(d);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "/proc/%d/task/%s/status", (int)pid, e->d_name);
        FILE *f = fopen(path, "r");
        assert_non_null(f);
        int found = 0;
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "Cpus_allowed_list:", 18)) {
                char *v = line + 18;
                v += strspn(v, " \t");
                v[strcspn(v, "\n")] = 0;
                if (strcmp(v, want))
                    fail_msg("%s: Cpus_allowed_list %s, wanted %s", path, v, want);
                found = 1;
            }
        fclose(f);
        assert_true(found);
        n++;
    }
    closedir(d);
    return n;
}

static int in_cgroup(pid_t pid)
{
    char path[64], buf[4096], name[64];
    snprintf(path, sizeof path, "/proc/%d/cgroup", (int)pid);
    snprintf(name, sizeof name, "/dbscale-%d\n", (int)getpid());
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return strstr(buf, name) != NULL;
}

/* The same checks for affinity and cpuset. */
static void hold_child(enum cpu_method m)
{
    char err[512], all[256];
    int non;
    struct cpulist online = online_set(&non, all, sizeof all);

    struct cpuset_ctl *c = cpuset_open(m, err, sizeof err);
    if (!c) {
        assert_int_equal(m, CPU_CPUSET);
        print_message("cpuset method not available here, skipped: %s\n", err);
        skip();
    }
    struct child k;
    child_start(&k);
    pid_t pids[] = {k.pid};
    struct cpulist zero = set_of("0");

    if (cpuset_apply(c, pids, 1, &zero, err, sizeof err) != 0)
        fail_msg("apply {0}: %s", err);
    if (cpuset_verify(c, pids, 1, &zero, err, sizeof err) != 0)
        fail_msg("verify {0}: %s", err);
    assert_int_equal(check_tasks(k.pid, "0"), 2);
    if (m == CPU_CPUSET)
        assert_true(in_cgroup(k.pid));

    if (non >= 2) {
        if (cpuset_apply(c, pids, 1, &online, err, sizeof err) != 0)
            fail_msg("apply all: %s", err);
        if (cpuset_verify(c, pids, 1, &online, err, sizeof err) != 0)
            fail_msg("verify all: %s", err);
        assert_int_equal(check_tasks(k.pid, all), 2);
        /* A wrong list is caught and named. */
        assert_int_equal(cpuset_verify(c, pids, 1, &zero, err, sizeof err), -1);
        assert_non_null(strstr(err, "wanted 0"));
        assert_non_null(strstr(err, all));
        /* And back down, for cpuset a shrink of cpuset.cpus. */
        if (cpuset_apply(c, pids, 1, &zero, err, sizeof err) != 0)
            fail_msg("apply {0} again: %s", err);
        assert_int_equal(check_tasks(k.pid, "0"), 2);
    }
    struct cpulist bad;
    assert_int_equal(cpulist_init(&bad), 0);
    cpulist_add(&bad, cpulist_ncpus(&bad) - 1); /* a CPU id past the online ones */
    assert_int_equal(cpuset_apply(c, pids, 1, &bad, err, sizeof err), -1);
    cpulist_free(&bad);

    /* The cgroup's own processes are widened on the way out even when the
     * caller does not name them (backends forked since the last apply). */
    if (m == CPU_CPUSET)
        cpuset_close(c, NULL, 0);
    else
        cpuset_close(c, pids, 1);
    assert_int_equal(check_tasks(k.pid, all), 2);
    assert_false(in_cgroup(k.pid));
    cpuset_close(c, pids, 1); /* idempotent */
    assert_int_equal(cpuset_verify(NULL, pids, 1, &online, err, sizeof err), 0);
    child_stop(&k);
    cpulist_free(&zero);
    cpulist_free(&online);
}

static void test_affinity(void **state)
{
    (void)state;
    hold_child(CPU_AFFINITY);
}

static void test_cpuset(void **state)
{
    (void)state;
    hold_child(CPU_CPUSET);
}

/* close(NULL) resets a narrowed task to every online CPU. */
static void test_close_null(void **state)
{
    (void)state;
    char err[512], all[256];
    int non;
    struct cpulist online = online_set(&non, all, sizeof all), zero = set_of("0");
    struct child k;
    child_start(&k);
    pid_t pids[] = {k.pid};
    struct cpuset_ctl *c = cpuset_open(CPU_AFFINITY, err, sizeof err);
    assert_non_null(c);
    assert_int_equal(cpuset_apply(c, pids, 1, &zero, err, sizeof err), 0);
    cpuset_close(NULL, pids, 1);
    assert_int_equal(check_tasks(k.pid, all), 2);
    cpuset_close(c, NULL, 0);
    child_stop(&k);
    /* A process that is gone is no error for apply, but verify says so. */
    c = cpuset_open(CPU_AFFINITY, err, sizeof err);
    assert_int_equal(cpuset_apply(c, pids, 1, &zero, err, sizeof err), 0);
    assert_int_equal(cpuset_verify(c, pids, 1, &zero, err, sizeof err), -1);
    assert_non_null(strstr(err, "exists"));
    cpuset_close(c, pids, 1);
    cpulist_free(&zero);
    cpulist_free(&online);
}

/* ---- hotplug, only when asked (DBSCALE_TEST_HOTPLUG=1, as root) ---- */

static char online_list[256]; /* as found at the start */

static void read_online(char *buf, size_t len)
{
    int n;
    struct cpulist l = online_set(&n, buf, len);
    cpulist_free(&l);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Wait up to secs for the online list to read want; seconds taken, or -1. */
static double wait_online(const char *want, double secs)
{
    char now[256];
    double t0 = now_s();
    for (;;) {
        read_online(now, sizeof now);
        if (!strcmp(now, want))
            return now_s() - t0;
        if (now_s() - t0 > secs)
            return -1;
        usleep(2000);
    }
}

static int hotplug_setup(void **state)
{
    (void)state;
    read_online(online_list, sizeof online_list);
    return 0;
}

/* In a child: open hotplug, take every CPU but 0 offline, report, wait. */
static void test_hotplug_apply(void **state)
{
    (void)state;
    char err[512];
    int non;
    struct cpulist zero = set_of("0"), online = online_set(&non, NULL, 0);
    if (non < 2)
        skip();
    double t0 = now_s();
    struct cpuset_ctl *c = cpuset_open(CPU_HOTPLUG, err, sizeof err);
    if (!c) {
        print_message("hotplug: skipped: %s\n", err);
        skip();
    }
    double t1 = now_s();
    struct child k;
    child_start(&k);
    pid_t pids[] = {k.pid};
    struct cpulist one = set_of("1");
    assert_int_equal(cpuset_apply(c, pids, 1, &one, err, sizeof err), -1);
    assert_non_null(strstr(err, "CPU 0"));
    if (cpuset_apply(c, pids, 1, &zero, err, sizeof err) != 0) {
        cpuset_close(c, pids, 1);
        child_stop(&k);
        if (strstr(err, "hotplug is not")) {
            print_message("hotplug: skipped: %s\n", err);
            skip();
        }
        fail_msg("apply {0}: %s", err);
    }
    double t2 = now_s();
    char now[256];
    read_online(now, sizeof now);
    assert_string_equal(now, "0");
    assert_int_equal(sysconf(_SC_NPROCESSORS_ONLN), 1);
    if (cpuset_verify(c, pids, 1, &zero, err, sizeof err) != 0)
        fail_msg("verify {0}: %s", err);
    assert_int_equal(cpuset_verify(c, pids, 1, &online, err, sizeof err), -1);
    if (cpuset_apply(c, pids, 1, &online, err, sizeof err) != 0)
        fail_msg("apply all: %s", err);
    double t3 = now_s();
    if (cpuset_verify(c, pids, 1, &online, err, sizeof err) != 0)
        fail_msg("verify all: %s", err);
    assert_int_equal(cpuset_apply(c, pids, 1, &zero, err, sizeof err), 0);
    cpuset_close(c, pids, 1);
    double t4 = now_s();
    read_online(now, sizeof now);
    assert_string_equal(now, online_list);
    assert_int_equal(check_tasks(k.pid, online_list), 2);
    cpuset_close(c, pids, 1);
    child_stop(&k);
    print_message("hotplug: open %.1f ms, offline %.1f ms, online %.1f ms, close %.1f ms\n",
                  (t1 - t0) * 1e3, (t2 - t1) * 1e3, (t3 - t2) * 1e3, (t4 - t3) * 1e3);
}

/* A child in its own process group holds CPUs offline; the whole group gets
 * sig (as a terminal's Ctrl-C would); the guardian must restore them. With
 * keeper, the holder first forks a process that keeps the guardian's socket
 * open, and only the holder is killed: the guardian's pidfd must tell. */
static void killed_holder(int sig, int keeper)
{
    int non;
    struct cpulist on = online_set(&non, NULL, 0);
    cpulist_free(&on);
    if (non < 2)
        skip();
    int rep[2];
    assert_int_equal(pipe(rep), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(rep[0]);
        setpgid(0, 0);
        /* a shell starts background jobs with SIGINT ignored, and the holder
         * would inherit that: it must die of the signal like a user's run */
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        char err[512] = "E";
        struct cpulist zero = set_of("0");
        struct cpuset_ctl *c = cpuset_open(CPU_HOTPLUG, err + 1, sizeof err - 1);
        if (c && cpuset_apply(c, NULL, 0, &zero, err + 1, sizeof err - 1) == 0) {
            strcpy(err, "ok");
            if (keeper && fork() == 0)
                for (;;)
                    pause();
        }
        if (write(rep[1], err, strlen(err)) < 0)
            _exit(1);
        for (;;)
            pause();
    }
    close(rep[1]);
    char msg[512];
    ssize_t n = read(rep[0], msg, sizeof msg - 1);
    close(rep[0]);
    msg[n > 0 ? n : 0] = 0;
    if (strcmp(msg, "ok")) {
        kill(-pid, SIGKILL);
        waitpid(pid, NULL, 0);
        assert_true(wait_online(online_list, 5) >= 0);
        if (strstr(msg, "hotplug is not")) {
            print_message("hotplug: skipped: %s\n", msg + 1);
            skip();
        }
        fail_msg("child: %s", msg);
    }
    char now[256];
    read_online(now, sizeof now);
    assert_string_equal(now, "0");
    assert_int_equal(kill(keeper ? pid : -pid, sig), 0);
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == sig);
    double t = wait_online(online_list, 5);
    if (keeper)
        kill(-pid, SIGKILL); /* the keeper, reparented; init reaps it */
    if (t < 0)
        fail_msg("after %s: online is still not %s after 5 s", strsignal(sig), online_list);
    print_message("hotplug: %s to the holder%s: CPUs back in %.1f ms\n", strsignal(sig),
                  keeper ? " (its forked child alive)" : "'s group", t * 1e3);
}

static void test_hotplug_sigkill(void **state)
{
    (void)state;
    killed_holder(SIGKILL, 0);
}

static void test_hotplug_keeper(void **state)
{
    (void)state;
    killed_holder(SIGKILL, 1);
}

static void test_hotplug_sigint(void **state)
{
    (void)state;
    killed_holder(SIGINT, 0);
}

static void test_hotplug_sigterm(void **state)
{
    (void)state;
    killed_holder(SIGTERM, 0);
}

int main(void)
{
    const char *hp = getenv("DBSCALE_TEST_HOTPLUG");
    if (hp && !strcmp(hp, "1")) {
        const struct CMUnitTest tests[] = {
            cmocka_unit_test(test_hotplug_apply),  cmocka_unit_test(test_hotplug_sigkill),
            cmocka_unit_test(test_hotplug_sigint), cmocka_unit_test(test_hotplug_sigterm),
            cmocka_unit_test(test_hotplug_keeper),
        };
        return cmocka_run_group_tests_name("cpuset_hotplug", tests, hotplug_setup, NULL);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_methods),    cmocka_unit_test(test_online),
        cmocka_unit_test(test_affinity),   cmocka_unit_test(test_cpuset),
        cmocka_unit_test(test_close_null),
    };
    return cmocka_run_group_tests_name("cpuset", tests, NULL, NULL);
}
