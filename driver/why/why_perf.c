/*
 * why_perf.c - a perf profile of the server over exactly a level's window:
 * `perf record -e cpu-clock -g -p PIDS` started before the level with its
 * events off (-D -1), switched on and off through its control fifo at the
 * window's edges (one write each, so the timing thread never waits), then
 * stopped, and its samples read back with `perf script` and folded.
 *
 * The one idea: perf is started and asked "ping" before the level, and the
 * level begins only once it answered, so its attach time never eats into a
 * window; cpu-clock is a software event, so it works in VMs without
 * hardware counters. perf dies with us (PR_SET_PDEATHSIG) and its files
 * live in a temporary directory removed after folding.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/procfs.h"
#include "why/why_internal.h"

/* fork + exec perf with stdout to out_fd (or the log) and stderr to the
 * log; it gets sig when this thread dies. -1, or its pid. */
static pid_t run_perf(char *const argv[], int out_fd, const char *log, int sig)
{
    int lfd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    if (lfd < 0)
        return -1;
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, sig);
        if (getppid() != parent)
            _exit(126);
        int nul = open("/dev/null", O_RDONLY);
        if (nul >= 0)
            dup2(nul, 0);
        dup2(out_fd >= 0 ? out_fd : lfd, 1);
        dup2(lfd, 2);
        execvp("perf", argv);
        _exit(127);
    }
    close(lfd);
    return pid;
}

/* Wait up to ms for pid; its status in *st and CPU in *cpu_s. 0, or -1
 * when it is still running. */
static int reap(pid_t pid, int ms, int *st, double *cpu_s)
{
    for (int waited = 0;; waited += 10) {
        struct rusage ru;
        pid_t r = wait4(pid, st, WNOHANG, &ru);
        if (r == pid) {
            if (cpu_s)
                *cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                         (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
            return 0;
        }
        if (r < 0 && errno != EINTR)
            return 0;
        if (waited >= ms)
            return -1;
        usleep(10000);
    }
}

/* The fix for what perf's log says. */
static void explain(const char *log, int status, char *msg, size_t msglen)
{
    char text[4096] = "";
    procfs_read(log, text, sizeof text);
    char par[32] = "?";
    procfs_read("/proc/sys/kernel/perf_event_paranoid", par, sizeof par);
    par[strcspn(par, "\n")] = '\0';
    char first[200];
    snprintf(first, sizeof first, "%s", text);
    first[strcspn(first, "\n")] = '\0';
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        snprintf(msg, msglen, "perf is not installed: apt-get install linux-perf");
    else if (strstr(text, "not found for kernel") || strstr(text, "is not installed"))
        snprintf(msg, msglen,
                 "perf for the running kernel is not installed: apt-get install linux-perf (%s)",
                 first);
    else if (strstr(text, "paranoid") || strstr(text, "ermission") || strstr(text, "EACCES"))
        snprintf(msg, msglen,
                 "perf may not profile the server (kernel.perf_event_paranoid=%s): run as root or "
                 "sysctl -w kernel.perf_event_paranoid=-1",
                 par);
    else
        snprintf(msg, msglen, "perf record failed: %s", first[0] ? first : "no message");
}

static void cleanup(struct why_perf *p)
{
    if (p->ctl_fd >= 0)
        close(p->ctl_fd);
    if (p->ack_fd >= 0)
        close(p->ack_fd);
    p->ctl_fd = p->ack_fd = -1;
    unlink(p->ctl);
    unlink(p->ack);
    unlink(p->data);
    unlink(p->log);
    rmdir(p->dir);
}

/* "ack\n" on the ack fifo within ms, perf still alive. */
static int await_ack(struct why_perf *p, int ms)
{
    char buf[64];
    for (int waited = 0; waited < ms; waited += 50) {
        struct pollfd pf = {p->ack_fd, POLLIN, 0};
        if (poll(&pf, 1, 50) > 0 && read(p->ack_fd, buf, sizeof buf) > 0)
            return 0;
        int st;
        if (waitpid(p->pid, &st, WNOHANG) == p->pid) {
            p->pid = -st - 1; /* gone: its status, for explain */
            return -1;
        }
    }
    return -1;
}

int why_perf_start(struct why_perf *p, const pid_t *pids, int n, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    p->ctl_fd = p->ack_fd = -1;
    p->pid = 0;
    snprintf(p->dir, sizeof p->dir, "%s/dbscale-perf-XXXXXX",
             getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (n <= 0 || !mkdtemp(p->dir)) {
        snprintf(err, errlen,
                 n <= 0 ? "no server process to profile"
                        : "cannot make a directory for perf's files");
        return -1;
    }
    snprintf(p->data, sizeof p->data, "%s/perf.data", p->dir);
    snprintf(p->ctl, sizeof p->ctl, "%s/ctl", p->dir);
    snprintf(p->ack, sizeof p->ack, "%s/ack", p->dir);
    snprintf(p->log, sizeof p->log, "%s/log", p->dir);
    if (mkfifo(p->ctl, 0600) < 0 || mkfifo(p->ack, 0600) < 0 ||
        (p->ctl_fd = open(p->ctl, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0 ||
        (p->ack_fd = open(p->ack, O_RDWR | O_NONBLOCK | O_CLOEXEC)) < 0) {
        snprintf(err, errlen, "cannot make perf's control fifos: %s", strerror(errno));
        cleanup(p);
        return -1;
    }
    struct sbuf list = {0};
    for (int i = 0; i < n; i++)
        sbuf_printf(&list, "%s%ld", i ? "," : "", (long)pids[i]);
    char control[400];
    snprintf(control, sizeof control, "fifo:%s,%s", p->ctl, p->ack);
    char *argv[] = {"perf", "record", "-e", "cpu-clock", "-F",        "999",   "-g",
                    "-p",   list.s,   "-o", p->data,     "--control", control, "-D",
                    "-1",   "-q",     "-N", "-B",        NULL};
    p->pid = run_perf(argv, -1, p->log, SIGINT);
    sbuf_free(&list);
    if (p->pid < 0 || write(p->ctl_fd, "ping\n", 5) != 5 || await_ack(p, 20000) < 0) {
        int st = p->pid < -1 ? -(p->pid + 1) : 0;
        if (p->pid > 0) { /* alive but mute */
            kill(p->pid, SIGKILL);
            reap(p->pid, 2000, &st, NULL);
        }
        explain(p->log, st, err, errlen);
        cleanup(p);
        p->pid = 0;
        return -1;
    }
    p->running = 1;
    return 0;
}

void why_perf_enable(struct why_perf *p, int on)
{
    if (p->running && write(p->ctl_fd, on ? "enable\n" : "disable\n", on ? 7 : 8) < 0)
        p->running = 1; /* a full fifo: perf reads it soon; nothing to do here */
}

int why_perf_probe(const pid_t *pids, int n, char *msg, size_t msglen)
{
    struct why_perf p;
    if (why_perf_start(&p, pids, n, msg, msglen) < 0)
        return -1;
    struct why_result r;
    memset(&r, 0, sizeof r);
    int rc = why_perf_stop(&p, &r, msg, msglen);
    why_result_free(&r);
    return rc;
}

/* perf script's text, folded into r. */
static int fold(struct why_perf *p, struct why_result *r, char *err, size_t errlen)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    char *argv[] = {"perf",        "script", "-i", p->data, "-F", "comm,tid,period,ip,sym,dso",
                    "--no-inline", NULL};
    pid_t pid = run_perf(argv, fds[1], p->log, SIGKILL);
    close(fds[1]);
    if (pid < 0) {
        close(fds[0]);
        snprintf(err, errlen, "cannot run perf script");
        return -1;
    }
    FILE *f = fdopen(fds[0], "r");
    struct why_fold *fo = why_fold_new();
    char *line = NULL;
    size_t cap = 0;
    while (f && getline(&line, &cap, f) >= 0)
        why_fold_line(fo, line);
    free(line);
    if (f)
        fclose(f);
    else
        close(fds[0]);
    r->folded = why_fold_done(fo, &r->prof.samples, &r->prof.kernel_samples);
    int st = 0;
    if (reap(pid, 600000, &st, NULL) < 0) {
        kill(pid, SIGKILL);
        reap(pid, 2000, &st, NULL);
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        explain(p->log, st, err, errlen);
        return -1;
    }
    return 0;
}

int why_perf_stop(struct why_perf *p, struct why_result *r, char *err, size_t errlen)
{
    if (!p->running)
        return -1;
    p->running = 0;
    kill(p->pid, SIGINT);
    int st = 0;
    double cpu = 0;
    if (reap(p->pid, 60000, &st, &cpu) < 0) {
        kill(p->pid, SIGKILL);
        reap(p->pid, 2000, &st, &cpu);
    }
    r->prof.perf_cpu_s = cpu;
    int rc = fold(p, r, err, errlen);
    cleanup(p);
    return rc;
}
