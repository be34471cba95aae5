/*
 * test_spawn_reuse.c - a recycled pid is never signalled: the server's
 * guardian (server_guard.c) and spawn_kill_session_fd() kill through a pidfd
 * taken while the process was still ours, so once it is gone another
 * process given the same pid lives on. The pid is really recycled here:
 * as root, /proc/sys/kernel/ns_last_pid makes the next fork take the dead
 * child's pid (skipped when that cannot be arranged).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "servers/server.h"
#include "servers/spawn.h"

static pid_t sleeper(void)
{
    pid_t p = fork();
    if (p == 0) {
        setsid();               /* a session of its own, as spawn_start makes */
        close_range(3, ~0U, 0); /* and no fd of ours (the guardian's socket) */
        for (;;)
            pause();
    }
    return p;
}

/* A new sleeper that has the pid `want` (a pid just freed), or -1. */
static pid_t sleeper_at(pid_t want)
{
    for (int tries = 0; tries < 20; tries++) {
        int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
        if (fd < 0)
            return -1;
        char b[32];
        int n = snprintf(b, sizeof b, "%d", (int)want - 1);
        int ok = write(fd, b, (size_t)n) == n;
        close(fd);
        if (!ok)
            return -1;
        pid_t p = sleeper();
        if (p == want)
            return p;
        kill(p, SIGKILL);
        waitpid(p, NULL, 0);
    }
    return -1;
}

/* Our child p was sent no SIGKILL before now: SIGTERM it and reap it; it
 * must die of the SIGTERM. A SIGKILL sent before (by the code under test,
 * which returned, or a process we reaped, before this call) has already made
 * the group exit, and a signal to an exiting group is dropped: p then dies
 * of the SIGKILL. No sleep to let a kill land, no race either way. */
static int never_killed(pid_t p)
{
    int st;
    kill(p, SIGTERM);
    if (waitpid(p, &st, 0) != p)
        return 0;
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM;
}

static void test_kill_session_fd(void **state)
{
    (void)state;
    pid_t a = sleeper();
    int pfd = spawn_pidfd(a);
    assert_true(pfd >= 0);
    assert_true(spawn_alive_fd(a, pfd));
    kill(a, SIGKILL);
    waitpid(a, NULL, 0); /* reaped: its pid is free for anyone */
    pid_t b = sleeper_at(a);
    if (b < 0) {
        close(pfd);
        skip();
    }
    assert_false(spawn_alive_fd(a, pfd)); /* a is gone, whatever now has its pid */
    spawn_kill_session_fd(a, pfd);
    assert_true(never_killed(b)); /* spawn_kill_session(a) would have killed b and its session */
    close(pfd);
}

static void test_guardian(void **state)
{
    (void)state;
    struct server s;
    memset(&s, 0, sizeof s);
    snprintf(s.dir, sizeof s.dir, "/tmp/dbscale-reuse-XXXXXX");
    assert_non_null(mkdtemp(s.dir));
    char err[256];
    assert_int_equal(server_guard(&s, err, sizeof err), 0);
    pid_t a = sleeper(), c = sleeper();
    server_guard_pid(&s, a); /* told while ours: a pidfd of a */
    server_guard_pid(&s, c);
    kill(a, SIGKILL);
    waitpid(a, NULL, 0);
    pid_t b = sleeper_at(a);
    if (b < 0) {
        kill(c, SIGKILL);
        waitpid(c, NULL, 0);
        server_unguard(&s);
        rmdir(s.dir);
        skip();
    }
    /* as if dbscale died: the guardian's socket closes */
    close(s.guard_fd);
    int st;
    assert_int_equal(waitpid(s.guard_pid, &st, 0), s.guard_pid); /* it ends by rm -rf */
    struct stat sb;
    assert_int_equal(stat(s.dir, &sb), -1);  /* the directory went */
    assert_int_equal(waitpid(c, &st, 0), c); /* the live one it was told of was killed */
    assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    assert_true(never_killed(b)); /* the process that took a's pid was not */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kill_session_fd),
        cmocka_unit_test(test_guardian),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
