/*
 * spawn.c - the process plumbing under the throwaway servers: starting the
 * engines' programs, waiting for them, killing them, and removing what they
 * leave.
 *
 * The one idea: the caller may be multi-threaded (the sweep starts a server
 * while its workers run), so a child is made with fork + execve and nothing
 * but async-signal-safe calls in between; any lock another thread held at
 * fork time would otherwise deadlock the child. Each child leads its own
 * session, so one kill reaches everything it forked.
 *
 * It must never exec with our fds (every one is closed), never run an engine
 * as root when asked to drop (the child exits rather than stay root), and
 * never follow a symlink while removing a tree.
 */
#include "servers/spawn.h"

#include "core/procfs.h"
#include "core/signals.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <poll.h>
#include <sys/pidfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void spawn_sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/*
 * Between fork and execve only async-signal-safe calls: the caller may have
 * threads holding locks we would otherwise deadlock on in the child. The
 * child gets its own session (Ctrl-C on our terminal is ours to handle),
 * default signals, the CPU mask, the engine's user, and no inherited fds.
 */
static void (*on_start)(pid_t pid, void *arg);
static void *on_start_arg;

void spawn_on_start(void (*fn)(pid_t pid, void *arg), void *arg)
{
    on_start = fn;
    on_start_arg = arg;
}

pid_t spawn_start(const struct spawn_cmd *c, const char *home)
{
    char homeenv[PATH_MAX + 8];
    int n = snprintf(homeenv, sizeof homeenv, "HOME=%s", home);
    if (n < 0 || (size_t)n >= sizeof homeenv)
        return -1;
    char *envp[] = {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL=C",
                    "LANG=C", homeenv, NULL};
    int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devnull < 0)
        return -1;
    /* the gate: the child execs only once on_start (the guardian's
     * server_guard_pid) has its pidfd; if we die first, it reads EOF and
     * exits, so no program runs that the guardian does not know of */
    int gate[2];
    if (pipe2(gate, O_CLOEXEC) < 0) {
        close(devnull);
        return -1;
    }
    pid_t pid = fork();
    if (pid != 0) {
        close(devnull);
        close(gate[0]);
        if (pid > 0 && on_start)
            on_start(pid, on_start_arg);
        if (pid > 0)
            while (write(gate[1], "g", 1) < 0 && errno == EINTR)
                ;
        close(gate[1]);
        return pid;
    }
    /* child */
    close(gate[1]);
    sigset_t all;
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction sa = {.sa_handler = SIG_DFL};
        sigaction(sig, &sa, NULL); /* fails harmlessly for SIGKILL/SIGSTOP/RT internals */
    }
    char g;
    ssize_t got;
    while ((got = read(gate[0], &g, 1)) < 0 && errno == EINTR)
        ;
    if (got != 1)
        _exit(125); /* dbscale died before the guardian knew of us */
    setsid();
    if (c->cpus && sched_setaffinity(0, c->cpus_size, c->cpus) < 0)
        _exit(126);
    if (c->id->drop) {
        if (setgroups(0, NULL) < 0 || setgid(c->id->gid) < 0 || setuid(c->id->uid) < 0)
            _exit(126);
    }
    if (chdir("/") < 0)
        _exit(126);
    if (dup2(devnull, 0) < 0 || dup2(c->logfd, 1) < 0 || dup2(c->logfd, 2) < 0)
        _exit(126);
    close_range(3, ~0U, 0);
    execve(c->path, c->argv, envp);
    _exit(127);
}

void spawn_kill_session(pid_t pid)
{
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

int spawn_pidfd(pid_t pid)
{
    return pid > 0 ? pidfd_open(pid, 0) : -1;
}

int spawn_alive_fd(pid_t pid, int pidfd)
{
    if (pidfd < 0)
        return spawn_alive(pid);
    struct pollfd p = {pidfd, POLLIN, 0}; /* readable once it has exited */
    return poll(&p, 1, 0) == 0 && spawn_alive(pid);
}

void spawn_kill_session_fd(pid_t pid, int pidfd)
{
    if (pidfd < 0) {
        spawn_kill_session(pid);
        return;
    }
    if (pidfd_send_signal(pidfd, 0, NULL, 0) < 0)
        return;          /* gone: pid may name another process by now */
    kill(-pid, SIGKILL); /* the leader lives, so the session id is still its own */
    pidfd_send_signal(pidfd, SIGKILL, NULL, 0);
}

int spawn_wait(pid_t pid, const char *what, int timeout_ms, char *err, size_t errlen)
{
    int st = 0;
    for (int t = 0;; t += 20) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno == ECHILD)
            return 0; /* someone else reaped it (SIGCHLD ignored): judged by what follows */
        if (t >= timeout_ms || signals_caught()) {
            spawn_kill_session(pid); /* install-db runs mariadbd --bootstrap */
            waitpid(pid, &st, 0);
            if (signals_caught()) /* a stop ends a server's making at once */
                snprintf(err, errlen, "%s stopped: interrupted by signal %d", what,
                         signals_caught());
            else
                snprintf(err, errlen, "%s did not finish in %d s", what, timeout_ms / 1000);
            return -1;
        }
        spawn_sleep_ms(20);
    }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        snprintf(err, errlen, "cannot run %s", what);
    else if (WIFEXITED(st) && WEXITSTATUS(st) == 126)
        snprintf(err, errlen, "%s: cannot switch user or set the CPU affinity", what);
    else if (WIFEXITED(st))
        snprintf(err, errlen, "%s failed (exit %d)", what, WEXITSTATUS(st));
    else
        snprintf(err, errlen, "%s killed by signal %d", what, WTERMSIG(st));
    return -1;
}

ssize_t spawn_proc_read(pid_t pid, const char *file, char *buf, size_t n)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/%s", (long)pid, file);
    ssize_t r = procfs_read(path, buf, n); /* the one small-file reader */
    if (r < 0)
        buf[0] = '\0'; /* callers read buf either way */
    return r < 0 ? -1 : r;
}

/* Read from /proc, not kill(pid, 0): PID 1 here reaps slowly, and a zombie
 * answers kill(). */
int spawn_alive(pid_t pid)
{
    char buf[512];
    if (spawn_proc_read(pid, "stat", buf, sizeof buf) <= 0)
        return 0;
    char *p = strrchr(buf, ')');
    return p && p[1] == ' ' && p[2] != 'Z' && p[2] != 'X';
}

/* rm -rf below an open directory fd; never follows symlinks. */
static int rm_tree_at(int dfd)
{
    DIR *d = fdopendir(dfd);
    if (!d) {
        close(dfd);
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (unlinkat(dirfd(d), e->d_name, 0) == 0 || errno == ENOENT)
            continue;
        if (errno != EISDIR && errno != EPERM) {
            rc = -1;
            continue;
        }
        int sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0 || rm_tree_at(sub) < 0 || unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR) < 0)
            rc = -1;
    }
    closedir(d);
    return rc;
}

int spawn_rm_rf(const char *path, int keep_top)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT ? 0 : -1;
    if (rm_tree_at(fd) < 0)
        return -1;
    return keep_top || rmdir(path) == 0 ? 0 : -1;
}
