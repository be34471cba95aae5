/*
 * test_procfs.c - the kernel's small files read one way: whole and
 * terminated (or cut short, still terminated), one write, the tasks of a
 * process, its live children (a zombie is not one), /proc/stat's jiffies.
 */
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

#include "core/procfs.h"

static void test_read_write(void **state)
{
    (void)state;
    char path[64], buf[8];
    snprintf(path, sizeof path, "/tmp/dbscale-procfs.%d", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(procfs_write(path, "0-1023\n"), 0);
    assert_int_equal(procfs_read(path, buf, sizeof buf), 7);
    assert_string_equal(buf, "0-1023\n");
    char small[4];
    assert_int_equal(procfs_read(path, small, sizeof small), 3); /* cut, terminated */
    assert_string_equal(small, "0-1");
    unlink(path);
    assert_int_equal(procfs_read(path, buf, sizeof buf), -ENOENT);
    assert_int_equal(procfs_write(path, "x"), -ENOENT);
}

static int count_task(pid_t pid, pid_t tid, void *arg)
{
    (void)pid;
    (void)tid;
    (*(int *)arg)++;
    return 0;
}

static void *park(void *arg)
{
    int *quit = arg;
    while (!__atomic_load_n(quit, __ATOMIC_ACQUIRE)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static void test_tasks(void **state)
{
    (void)state;
    int quit = 0, n = 0;
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, park, &quit), 0);
    assert_int_equal(procfs_each_task(getpid(), count_task, &n), 0);
    assert_true(n >= 2);
    __atomic_store_n(&quit, 1, __ATOMIC_RELEASE);
    pthread_join(th, NULL);
    n = 0;
    /* a pid that does not exist has no tasks, and that is no error */
    assert_int_equal(procfs_each_task(0x7ffffff0, count_task, &n), 0);
    assert_int_equal(n, 0);
}

static void test_children(void **state)
{
    (void)state;
    int go[2];
    assert_int_equal(pipe(go), 0);
    pid_t live = fork();
    if (live == 0) {
        char b;
        close(go[1]);
        if (read(go[0], &b, 1) < 0)
            _exit(1);
        _exit(0);
    }
    pid_t dead = fork();
    if (dead == 0)
        _exit(0);
    /* wait until the second is a zombie (exited, not reaped) */
    siginfo_t si;
    memset(&si, 0, sizeof si);
    assert_int_equal(waitid(P_PID, (id_t)dead, &si, WEXITED | WNOWAIT), 0);
    pid_t kids[16];
    int n = procfs_children(getpid(), kids, 16);
    int saw_live = 0, saw_dead = 0;
    for (int i = 0; i < n; i++) {
        saw_live |= kids[i] == live;
        saw_dead |= kids[i] == dead;
    }
    assert_true(saw_live);
    assert_false(saw_dead);
    close(go[1]);
    close(go[0]);
    waitpid(live, NULL, 0);
    waitpid(dead, NULL, 0);
}

static void test_jiffies(void **state)
{
    (void)state;
    unsigned long long idle, total;
    assert_int_equal(procfs_cpu_jiffies(&idle, &total), 0);
    assert_true(total > 0 && idle <= total);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_write),
        cmocka_unit_test(test_tasks),
        cmocka_unit_test(test_children),
        cmocka_unit_test(test_jiffies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
