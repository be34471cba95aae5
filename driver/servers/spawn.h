/*
 * spawn.h - the process plumbing under the throwaway servers: run a program as
 * another user from a threaded caller, wait for it with a timeout, tell whether
 * a pid still lives, kill its whole session, and remove a directory tree.
 */
#ifndef DBSCALE_SPAWN_H
#define DBSCALE_SPAWN_H

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

/* Who a child runs as: ourselves, or (when root) a system user. */
struct spawn_ident {
    int drop; /* setgid/setuid in the child */
    uid_t uid;
    gid_t gid;
    char name[64];  /* the child's OS user */
    char admin[64]; /* ours: mysql admin login via unix_socket authentication */
};

struct spawn_cmd {
    const char *path;
    char *const *argv;
    int logfd; /* its stdout and stderr */
    const struct spawn_ident *id;
    const cpu_set_t *cpus; /* NULL = inherit */
    size_t cpus_size;
};

/* fork + execve in a new session, as c->id, on c->cpus, HOME=home, stdin from
 * /dev/null, no other inherited fd. The child's pid, or -1. In the child,
 * exit 125 = the caller died before it let the child go on (spawn_on_start's
 * callback runs first), 126 = cannot switch user or set the CPU affinity,
 * 127 = cannot exec. */
pid_t spawn_start(const struct spawn_cmd *c, const char *home);
/* fn(pid, arg) in the parent after every spawn_start (NULL: none): the
 * server's guardian is told each process made for it. */
void spawn_on_start(void (*fn)(pid_t pid, void *arg), void *arg);
/* Wait up to timeout_ms for a helper to finish (killing its session after,
 * or at once when a stop signal was caught: signals.h); 0 if it exited 0,
 * else -1 with what happened to `what` in err. */
int spawn_wait(pid_t pid, const char *what, int timeout_ms, char *err, size_t errlen);
/* Is pid alive and not a zombie? */
int spawn_alive(pid_t pid);
/* /proc/PID/file into buf (n bytes), terminated. Bytes read, <= 0 if none. */
ssize_t spawn_proc_read(pid_t pid, const char *file, char *buf, size_t n);
/* SIGKILL to pid's session (it leads one: spawn_start made it) and to pid.
 * Only for our own unreaped child: any other pid may be recycled by now. */
void spawn_kill_session(pid_t pid);
/* For a process that is not our child (a server another dbscale started):
 * a pidfd taken once it was checked to be the server (-1 without one), and
 * liveness and the session's SIGKILL through it, so a pid recycled after
 * the server exited is never signalled. */
int spawn_pidfd(pid_t pid);
int spawn_alive_fd(pid_t pid, int pidfd);
void spawn_kill_session_fd(pid_t pid, int pidfd);
void spawn_sleep_ms(int ms);
/* rm -rf path (keep_top: leave path itself, empty); never follows symlinks. */
int spawn_rm_rf(const char *path, int keep_top);

#endif
