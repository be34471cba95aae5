/*
 * host.c - running a study's command on this machine, as a child.
 *
 * The one idea: a run on the host is what a boot is in a guest, one
 * process that starts, runs the command and ends, so every run begins from
 * nothing (its own throwaway server, its own tables) and nothing a run
 * leaves behind can bias the next. The child is this dbscale, in its own
 * process group (the terminal's ^C is the study's to pass on), with
 * PR_SET_PDEATHSIG so it never outlives the study; a stop signal is passed
 * to it as SIGTERM, and it stops its server and keeps what it measured.
 *
 * It writes only the run's log (OUT/log/RUN.log, through OUT's descriptor,
 * no link followed); the command writes the results.
 */
#include "study/host.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/procfs.h"
#include "core/signals.h"
#include "core/util.h"

/* OUT/log/ID.log, made new; fd or -1 with why. */
static int open_log(const struct study_host *h, const struct study_run *u, char *why, size_t len)
{
    if (mkdirat(h->outfd, "log", 0755) < 0 && errno != EEXIST) {
        snprintf(why, len, "%s/log: %s", h->out, strerror(errno));
        return -1;
    }
    int d = openat(h->outfd, "log", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (d < 0) {
        snprintf(why, len, "%s/log: %s", h->out, strerror(errno));
        return -1;
    }
    char name[128];
    snprintf(name, sizeof name, "%s.log", u->id);
    int fd = openat(d, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        snprintf(why, len, "%s/log/%s: %s", h->out, name, strerror(errno));
    close(d);
    return fd;
}

/* fork + exec argv with stdout and stderr on a pipe; pid or -1. */
static pid_t start(const char *exe, char *const *argv, int *rfd, char *why, size_t len)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) {
        snprintf(why, len, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t parent = getpid(), pid = fork();
    if (pid < 0) {
        snprintf(why, len, "fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) { /* async-signal-safe calls only */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent)
            _exit(127);
        setpgid(0, 0);
        int null = open("/dev/null", O_RDONLY);
        dup2(null, 0);
        dup2(p[1], 1);
        dup2(p[1], 2);
        execv(exe, argv);
        _exit(127);
    }
    close(p[1]);
    *rfd = p[0];
    return pid;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/* The child's output: into the log, echoed line by line, the last line kept. */
struct outbuf {
    char line[1024], last[512];
    size_t ll;
    const char *echo; /* the run's id, or NULL */
};

static void take(struct outbuf *o, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\n' && o->ll < sizeof o->line - 1) {
            o->line[o->ll++] = s[i];
            continue;
        }
        if (s[i] != '\n') /* a line longer than the buffer: shown cut, kept whole in the log */
            continue;
        o->line[o->ll] = '\0';
        if (o->ll) {
            char *l = strrchr(o->line, '\r'); /* a progress line redrawn in place: its last */
            l = l ? l + 1 : o->line;
            if (*l)
                snprintf(o->last, sizeof o->last, "%s", l);
            if (o->echo && *l)
                fprintf(stderr, "  [%s] %s\n", o->echo, l);
        }
        o->ll = 0;
    }
}

static int host_run(void *arg, struct study_run *u, char *const *words, int nwords, int append,
                    int echo)
{
    struct study_host *h = arg;
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/%s", h->out, u->variant);
    char **argv = xcalloc((size_t)nwords + 6, sizeof *argv);
    int n = 0;
    argv[n++] = h->exe;
    for (int i = 0; i < nwords; i++)
        argv[n++] = words[i];
    argv[n++] = "--out";
    argv[n++] = dir;
    /* a sweep's later runs add their levels, numbered on (micro adds anyway) */
    if (append && nwords > 0 && !strcmp(words[0], "sweep"))
        argv[n++] = "--append";
    argv[n] = NULL;
    u->exit_code = -1;
    int logfd = open_log(h, u, u->why, sizeof u->why), rfd = -1;
    double t0 = now_s();
    pid_t pid = logfd < 0 ? -1 : start(h->exe, argv, &rfd, u->why, sizeof u->why);
    free(argv);
    if (pid < 0) {
        if (logfd >= 0)
            close(logfd);
        u->status = RUN_FAILED;
        return -1;
    }
    h->child = pid;
    struct outbuf o = {.echo = echo ? u->id : NULL};
    int passed = 0;
    for (;;) {
        if (signals_caught() && !passed) { /* once: it stops and keeps what it measured */
            kill(pid, SIGTERM);
            passed = 1;
        }
        struct pollfd pf = {rfd, POLLIN, 0};
        if (poll(&pf, 1, 200) <= 0)
            continue;
        char buf[4096];
        ssize_t r = read(rfd, buf, sizeof buf);
        if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN))
            break;
        if (r > 0) {
            if (write(logfd, buf, (size_t)r) < 0) { /* the log is best effort */
            }
            take(&o, buf, (size_t)r);
        }
    }
    take(&o, "\n", 1);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    h->child = 0;
    close(rfd);
    close(logfd);
    u->seconds = now_s() - t0;
    u->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    /* the host's boot, which its rows' boot column holds */
    if (procfs_read("/proc/sys/kernel/random/boot_id", u->boot_id, sizeof u->boot_id) <= 0)
        u->boot_id[0] = '\0';
    u->boot_id[strcspn(u->boot_id, "\n")] = '\0';
    if (passed) {
        u->status = RUN_STOPPED;
        snprintf(u->why, sizeof u->why, "stopped by signal %d", signals_caught());
    } else if (u->exit_code == 0) {
        u->status = RUN_OK;
    } else {
        u->status = RUN_FAILED;
        snprintf(u->why, sizeof u->why, "the command exited %d: %s", u->exit_code, o.last);
    }
    return u->status == RUN_OK ? 0 : -1;
}

struct study_backend study_host_backend(struct study_host *h)
{
    return (struct study_backend){.name = "host", .arg = h, .run = host_run, .record = NULL};
}
