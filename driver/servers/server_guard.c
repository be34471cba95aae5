/*
 * server_guard.c - a guardian process that outlives dbscale and removes a
 * managed server if dbscale dies without stopping it (SIGKILL, a crash).
 *
 * The one idea: a pipe (a socket pair). dbscale holds one end, the guardian
 * blocks in read() on the other. A clean server_stop() writes "d" (done) and the
 * guardian exits; any death of dbscale closes the pipe, read() returns 0, and
 * the guardian kills the server's whole session (SIGKILL: the data is thrown
 * away anyway, and postgres' children die with their process group, which
 * PR_SET_PDEATHSIG on the postmaster alone would not reach), removes the
 * sweep's cpuset cgroup (the name machine/cpuset.c gives it, under the root
 * cpuset_find_root finds) and then execs rm -rf on the directory.
 *
 * It must never do anything between fork and exec that is not
 * async-signal-safe (dbscale may have threads), never hold our stdout or
 * stderr open (a caller waiting for their end would hang), and never touch
 * anything when told "d".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpuset_internal.h"
#include "server_engine.h"

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* The guardian's whole life; async-signal-safe calls only. */
static void guard_main(int rfd, pid_t server, const char *cgroup, char *const rm_argv[])
{
    char c;
    for (;;) {
        ssize_t r = read(rfd, &c, 1);
        if (r == 1 && c == 'd')
            _exit(0);
        if (r == 0 || (r < 0 && errno != EINTR))
            break;
    }
    kill(-server, SIGKILL); /* the server leads its session: every process of it */
    kill(server, SIGKILL);
    for (int t = 0; cgroup[0] && t < 50; t++) { /* empty once its tasks are gone */
        if (rmdir(cgroup) == 0 || errno == ENOENT)
            break;
        nap_ms(100);
    }
    for (int t = 0; t < 30 && kill(server, 0) == 0; t++)
        nap_ms(100);
    char *envp[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", NULL};
    execve("/bin/rm", rm_argv, envp);
    execve("/usr/bin/rm", rm_argv, envp);
    _exit(127);
}

int server_guard(struct server *s, char *err, size_t errlen)
{
    if (s->guard_pid > 0 || s->pid <= 0)
        return 0;
    /* Everything the guardian needs is made before fork. */
    char root[PATH_MAX] = "", cgroup[PATH_MAX + 32] = "";
    int v2 = 0;
    if (cpuset_find_root(root, sizeof root, &v2) == 0)
        snprintf(cgroup, sizeof cgroup, "%s/dbscale-%d", root, (int)getpid());
    char *rm_argv[] = {"rm", "-rf", "--", s->dir, NULL};
    /* A socket pair, not a pipe: send(MSG_NOSIGNAL) to a guardian that died
     * must not SIGPIPE us. */
    int p[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) < 0) {
        snprintf(err, errlen, "socketpair: %s", strerror(errno));
        return -1;
    }
    int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (devnull < 0) {
        snprintf(err, errlen, "/dev/null: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    pid_t g = fork();
    if (g < 0) {
        snprintf(err, errlen, "cannot fork the server's guardian: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        close(devnull);
        return -1;
    }
    if (g == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        struct sigaction ign = {.sa_handler = SIG_IGN};
        sigaction(SIGINT, &ign, NULL); /* Ctrl-C is dbscale's to handle, then it says "d" */
        sigaction(SIGTERM, &ign, NULL);
        sigaction(SIGHUP, &ign, NULL);
        sigaction(SIGPIPE, &ign, NULL);
        setsid();
        if (chdir("/") < 0)
            _exit(1);
        dup2(devnull, 0);
        dup2(devnull, 1);
        dup2(devnull, 2);
        int rfd = p[0];
        if (rfd != 3 && dup2(rfd, 3) < 0)
            _exit(1);
        close_range(4, ~0U, 0);
        guard_main(3, s->pid, cgroup, rm_argv);
    }
    close(p[0]);
    close(devnull);
    s->guard_fd = p[1];
    s->guard_pid = g;
    return 0;
}

void server_unguard(struct server *s)
{
    if (s->guard_pid <= 0)
        return;
    ssize_t w;
    do
        w = send(s->guard_fd, "d", 1, MSG_NOSIGNAL);
    while (w < 0 && errno == EINTR);
    close(s->guard_fd);
    int st;
    while (waitpid(s->guard_pid, &st, 0) < 0 && errno == EINTR)
        ;
    s->guard_pid = 0;
    s->guard_fd = -1;
}
