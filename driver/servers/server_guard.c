/*
 * server_guard.c - a guardian process that outlives dbscale and removes a
 * managed server if dbscale dies without stopping it (SIGKILL, a crash),
 * from the moment its directory exists: while initdb or
 * mariadb-install-db still run, and after the server is up.
 *
 * The one idea: a socket pair. dbscale holds one end, the guardian blocks
 * in recvmsg() on the other. Every process started for the server (the
 * install tool, the daemon) is told to it as a pidfd (SCM_RIGHTS), opened
 * while that process was still dbscale's unreaped child, so the guardian
 * can never signal a recycled pid. A clean server_stop() (or a start that
 * failed and cleaned up) writes "d" (done) and the guardian exits; any
 * death of dbscale closes the socket, recvmsg() returns 0, and the
 * guardian kills the sessions of those processes that are still alive
 * (SIGKILL: the data is thrown away anyway, and postgres' children die
 * with their process group; a leader still alive means its group id is
 * still its own), removes the sweep's cpuset cgroup (the name
 * machine/cpuset.c gives it, under the root cpuset_find_root finds) and
 * then execs rm -rf on the directory.
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
#include <sys/pidfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "machine/cpuset_internal.h"
#include "servers/server_engine.h"

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

#define GUARD_MAX 16 /* processes told: install tool, daemon, a few port retries */

/* The guardian's whole life; async-signal-safe calls only. */
static void guard_main(int rfd, const char *cgroup, char *const rm_argv[])
{
    pid_t pid[GUARD_MAX];
    int pfd[GUARD_MAX], n = 0;
    for (;;) {
        char msg[1 + sizeof(pid_t)];
        union {
            char buf[CMSG_SPACE(sizeof(int))];
            struct cmsghdr align;
        } ctl;
        struct iovec iov = {msg, sizeof msg};
        struct msghdr mh = {.msg_iov = &iov,
                            .msg_iovlen = 1,
                            .msg_control = ctl.buf,
                            .msg_controllen = sizeof ctl.buf};
        ssize_t r = recvmsg(rfd, &mh, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (msg[0] == 'd')
            _exit(0);
        struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
        int fd = cm && cm->cmsg_type == SCM_RIGHTS ? *(int *)CMSG_DATA(cm) : -1;
        if (msg[0] != 'p' || r != (ssize_t)sizeof msg || n == GUARD_MAX) {
            if (fd >= 0)
                close(fd);
            continue;
        }
        memcpy(&pid[n], msg + 1, sizeof(pid_t));
        pfd[n++] = fd;
    }
    for (int i = n - 1; i >= 0; i--) {
        if (pfd[i] < 0) { /* no pidfd (a kernel before 5.3): the pid as it was */
            kill(-pid[i], SIGKILL);
            kill(pid[i], SIGKILL);
        } else if (pidfd_send_signal(pfd[i], 0, NULL, 0) == 0) {
            kill(-pid[i], SIGKILL); /* alive, so its session id is still its own */
            pidfd_send_signal(pfd[i], SIGKILL, NULL, 0);
        }
    }
    for (int t = 0; cgroup[0] && t < 50; t++) { /* empty once its tasks are gone */
        if (rmdir(cgroup) == 0 || errno == ENOENT)
            break;
        nap_ms(100);
    }
    for (int i = 0; i < n; i++) /* gone before their directory is */
        for (int t = 0; t < 30 && pfd[i] >= 0 && pidfd_send_signal(pfd[i], 0, NULL, 0) == 0; t++)
            nap_ms(100);
    char *envp[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", NULL};
    execve("/bin/rm", rm_argv, envp);
    execve("/usr/bin/rm", rm_argv, envp);
    _exit(127);
}

int server_guard(struct server *s, char *err, size_t errlen)
{
    if (s->guard_pid > 0 || !s->dir[0])
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
        guard_main(3, cgroup, rm_argv);
    }
    close(p[0]);
    close(devnull);
    s->guard_fd = p[1];
    s->guard_pid = g;
    if (s->pid > 0) /* a server started before its guardian */
        server_guard_pid(s, s->pid);
    return 0;
}

void server_guard_pid(struct server *s, pid_t pid)
{
    if (s->guard_pid <= 0 || pid <= 0)
        return;
    char msg[1 + sizeof(pid_t)] = {'p'};
    memcpy(msg + 1, &pid, sizeof pid);
    union {
        char buf[CMSG_SPACE(sizeof(int))];
        struct cmsghdr align;
    } ctl;
    memset(&ctl, 0, sizeof ctl);
    struct iovec iov = {msg, sizeof msg};
    struct msghdr mh = {.msg_iov = &iov, .msg_iovlen = 1};
    /* opened now, while pid is our unreaped child: it is that process */
    int fd = pidfd_open(pid, 0);
    if (fd >= 0) {
        mh.msg_control = ctl.buf;
        mh.msg_controllen = sizeof ctl.buf;
        struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);
        cm->cmsg_level = SOL_SOCKET;
        cm->cmsg_type = SCM_RIGHTS;
        cm->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(cm), &fd, sizeof fd);
    }
    while (sendmsg(s->guard_fd, &mh, MSG_NOSIGNAL) < 0 && errno == EINTR)
        ;
    if (fd >= 0)
        close(fd);
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
