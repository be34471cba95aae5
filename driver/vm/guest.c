/*
 * guest.c - running qemu for one boot and reading its console.
 *
 * The one idea: qemu's serial console is its stdout, a pipe this loop
 * polls. Every byte goes to the console file as it comes (a dead guest's
 * last words are on disk), each whole line is checked for the few things
 * that decide the outcome (the guest's /init started, a kernel panic, an
 * out-of-memory kill), and a console silent for timeout_s means a hung
 * guest. The same loop pins the vCPU threads once qemu has made them: with
 * -name debug-threads=on they are named "CPU N/TCG" or "CPU N/KVM"; qemu
 * itself starts on the housekeeping CPUs, so its other threads stay there.
 *
 * What the guest may write is shared by descriptor and mapped (see
 * guest_spec.share_model): a guest's root is never the host's.
 *
 * Never leave a qemu behind: PR_SET_PDEATHSIG kills it when dbscale dies,
 * and every way out of guest_run has reaped it.
 */
#include "vm/guest.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/procfs.h"
#include "core/signals.h"
#include "core/util.h"

#define MAX_ARGS 128 /* the fixed ones, 4 per guest node (16 at most), 4 per share */

/* qemu's command line into argv (strings in buf). */
static void qemu_argv(const struct guest_spec *g, char **argv, char *buf, size_t len)
{
    int n = 0;
    size_t at = 0;
#define ARG(...)                                                                                   \
    do {                                                                                           \
        argv[n++] = buf + at;                                                                      \
        at += (size_t)snprintf(buf + at, len - at, __VA_ARGS__) + 1;                               \
    } while (0)
    ARG("%s", g->qemu);
    ARG("-name");
    ARG("%s,debug-threads=on", g->name);
    ARG("-accel");
    ARG("%s", strcmp(g->accel, "kvm") ? "tcg,thread=multi" : "kvm");
    ARG("-cpu");
    /* TCG emulates every instruction set extension it offers, slowly: with
     * -cpu max glibc picks AVX2 string functions and a point-select level
     * ran at 216 tps where qemu64 (SSE2) ran 739 (bench/kernels.sh) */
    ARG("%s", strcmp(g->accel, "kvm") ? "qemu64" : "host");
    ARG("-smp");
    if (g->sockets > 0)
        ARG("%d,sockets=%d,cores=%d,threads=%d", g->vcpus, g->sockets, g->cores, g->threads);
    else
        ARG("%d", g->vcpus);
    ARG("-m");
    ARG("%d", g->mem_mb);
    /* the host's NUMA nodes the vCPUs span, as the guest's: vCPUs in node
     * order, the memory split evenly (the last node takes the remainder) */
    for (int i = 0; g->nodes > 1 && i < g->nodes; i++) {
        int mb = g->mem_mb / g->nodes + (i == g->nodes - 1 ? g->mem_mb % g->nodes : 0);
        int per = g->vcpus / g->nodes;
        ARG("-object");
        ARG("memory-backend-ram,id=dbscale-m%d,size=%dM", i, mb);
        ARG("-numa");
        ARG("node,nodeid=%d,cpus=%d-%d,memdev=dbscale-m%d", i, i * per, (i + 1) * per - 1, i);
    }
    ARG("-nodefaults");
    ARG("-no-user-config");
    ARG("-display");
    ARG("none");
    ARG("-nic");
    ARG("none");
    ARG("-serial");
    ARG("stdio");
    ARG("-monitor");
    ARG("none");
    ARG("-no-reboot");
    ARG("-kernel");
    ARG("%s", g->kernel);
    ARG("-append");
    ARG("%s", g->append);
    if (g->initrd) {
        ARG("-initrd");
        ARG("%s", g->initrd);
    }
    if (g->share_root) {
        ARG("-virtfs");
        ARG("local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap");
    }
    for (int i = 0; i < g->nshares; i++) {
        const struct guest_share *h = &g->shares[i];
        /* -fsdev and -device, not -virtfs, which drops fmode and dmode */
        ARG("-fsdev");
        if (h->writable)
            ARG("local,id=dbscale-fs%d,path=/proc/self/fd/%d,security_model=%s,fmode=0644,"
                "dmode=0755,multidevs=remap",
                i, h->fd, g->share_model ? g->share_model : "mapped-xattr");
        else
            ARG("local,id=dbscale-fs%d,path=/proc/self/fd/%d,security_model=none,readonly=on,"
                "multidevs=remap",
                i, h->fd);
        ARG("-device");
        ARG("virtio-9p-pci,fsdev=dbscale-fs%d,mount_tag=%s", i, h->tag);
    }
#undef ARG
    argv[n] = NULL;
}

/* fork + exec qemu with stdout and stderr on a pipe; its pid, or -1. */
static pid_t start(const struct guest_spec *g, int *rfd, char *why, size_t whylen)
{
    static char buf[8192];
    char *argv[MAX_ARGS];
    qemu_argv(g, argv, buf, sizeof buf);
    cpu_set_t house;
    CPU_ZERO(&house);
    for (int i = 0; i < g->nhouse; i++)
        CPU_SET(g->house[i], &house);
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) {
        snprintf(why, whylen, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(why, whylen, "fork: %s", strerror(errno));
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        /* async-signal-safe calls only: the parent may have threads */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        setpgid(0, 0); /* the terminal's ^C is dbscale's to act on */
        int null = open("/dev/null", O_RDONLY);
        dup2(null, 0);
        dup2(p[1], 1);
        dup2(p[1], 2);
        for (int i = 0; i < g->nshares; i++) /* qemu opens /proc/self/fd/N */
            fcntl(g->shares[i].fd, F_SETFD, 0);
        /* qemu's threads start here; each vCPU thread is moved to its own
         * CPU once it exists (pin_vcpus), the rest stay on these */
        if (g->nhouse > 0)
            sched_setaffinity(0, sizeof house, &house);
        execv(g->qemu, argv);
        _exit(127);
    }
    close(p[1]);
    *rfd = p[0];
    return pid;
}

struct pinctx {
    const struct guest_spec *g;
    int done;
};

static int pin_task(pid_t pid, pid_t tid, void *arg)
{
    struct pinctx *c = arg;
    char path[64], comm[64];
    snprintf(path, sizeof path, "/proc/%d/task/%d/comm", (int)pid, (int)tid);
    int cpu;
    if (procfs_read(path, comm, sizeof comm) <= 0 || sscanf(comm, "CPU %d/", &cpu) != 1 ||
        cpu < 0 || cpu >= c->g->vcpus)
        return 0;
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(c->g->pin[cpu], &s);
    if (sched_setaffinity(tid, sizeof s, &s) == 0)
        c->done++;
    return 0;
}

/* Pin every vCPU thread qemu has made so far; 1 when all are. */
static int pin_vcpus(const struct guest_spec *g, pid_t pid)
{
    struct pinctx c = {g, 0};
    procfs_each_task(pid, pin_task, &c);
    return c.done == g->vcpus;
}

/* After an optional printk time ("[   12.345678] "), the kernel's words. */
static const char *kernel_words(const char *l)
{
    if (l[0] != '[')
        return l;
    const char *e = strchr(l, ']');
    if (!e)
        return l;
    for (const char *p = l + 1; p < e; p++)
        if (*p != ' ' && *p != '.' && !isdigit((unsigned char)*p))
            return l;
    return e[1] == ' ' ? e + 2 : e + 1;
}

enum guest_line guest_line_kind(const char *l)
{
    if (!strncmp(l, "dbscale-guest: ", 15))
        return GL_INIT;
    if (!strncmp(l, "| ", 2) || !strcmp(l, "|"))
        return GL_COMMAND;
    const char *k = kernel_words(l);
    if (!strncmp(k, "Kernel panic", 12))
        return GL_PANIC;
    if (!strncmp(k, "Out of memory", 13) || !strncmp(k, "oom-kill:", 9) ||
        strstr(k, " invoked oom-killer: "))
        return GL_OOM;
    return GL_OTHER;
}

/* The outcome a console line tells, if any. */
static void check_line(const char *l, struct guest_result *r, double t, const char *echo)
{
    enum guest_line kind = guest_line_kind(l);
    int n;
    if (kind == GL_INIT && !strncmp(l + 15, "init", 4) && !r->booted) {
        r->booted = 1;
        r->boot_s = t;
    } else if (kind == GL_INIT && !strncmp(l + 15, "FAILED: ", 8) && !r->why[0]) {
        snprintf(r->why, sizeof r->why, "%s", l + 23);
    } else if (kind == GL_INIT && sscanf(l + 15, "exit %d", &n) == 1 && r->exit_code < 0) {
        r->exit_code = n;
    } else if (kind == GL_INIT && !strncmp(l + 15, "boot ", 5) && !r->boot_id[0]) {
        snprintf(r->boot_id, sizeof r->boot_id, "%.36s", l + 20);
    } else if (kind == GL_PANIC && !r->panicked) {
        r->panicked = 1;
        snprintf(r->why, sizeof r->why, "%s", kernel_words(l));
    } else if (kind == GL_OOM) {
        r->oom = 1;
    }
    /* the guest's own lines and the command's, not the firmware's escapes */
    if (echo && (r->booted || r->panicked)) {
        for (const char *p = l; *p; p++)
            if (*p == 033)
                return;
        const char *shown = kind != GL_COMMAND ? l : l[1] ? l + 2 : ""; /* "| " off */
        fprintf(stderr, "  [%s %5.1fs] %s\n", echo, t, shown);
    }
}

/* Feed n bytes of console into the line buffer. */
static void console_bytes(const char *s, size_t n, char *line, size_t *ll, size_t cap,
                          struct guest_result *r, double t, const char *echo)
{
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '\r')
            continue;
        if (c == '\n' || *ll == cap - 1) {
            line[*ll] = '\0';
            check_line(line, r, t, echo);
            *ll = 0;
            if (c == '\n')
                continue;
        }
        line[(*ll)++] = c;
    }
}

static void kill_qemu(pid_t pid)
{
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

int guest_run(const struct guest_spec *g, struct guest_result *r)
{
    memset(r, 0, sizeof *r);
    r->boot_s = -1;
    r->qemu_exit = -1;
    r->exit_code = -1;
    int cfd = g->console_fd >= 0
                  ? g->console_fd
                  : open(g->console, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (cfd < 0) {
        snprintf(r->why, sizeof r->why, "%s: %s", g->console, strerror(errno));
        return -1;
    }
    int rfd = -1;
    uint64_t t0 = now_ns(), last = t0;
    pid_t pid = start(g, &rfd, r->why, sizeof r->why);
    if (pid < 0) {
        close(cfd);
        return -1;
    }
    char line[1024], buf[4096];
    size_t ll = 0;
    int pinning = g->pin != NULL;
    for (;;) {
        struct pollfd pf = {rfd, POLLIN, 0};
        int pr = poll(&pf, 1, 200);
        uint64_t now = now_ns();
        double t = (double)(now - t0) / 1e9;
        if (pinning && pin_vcpus(g, pid)) {
            r->pinned = 1;
            pinning = 0;
        } else if (pinning && t > 30) {
            pinning = 0; /* qemu never named its vCPU threads: said as not pinned */
        }
        if (signals_caught()) {
            r->stopped = 1;
            snprintf(r->why, sizeof r->why, "stopped by signal %d", signals_caught());
            kill_qemu(pid);
            break;
        }
        if (pr > 0) {
            ssize_t n = read(rfd, buf, sizeof buf);
            if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
                break; /* qemu exited */
            if (n > 0) {
                last = now;
                if (write(cfd, buf, (size_t)n) < 0) { /* the console file is best effort */
                }
                console_bytes(buf, (size_t)n, line, &ll, sizeof line, r, t, g->echo);
            }
        } else if ((double)(now - last) / 1e9 > g->timeout_s) {
            r->timed_out = 1;
            snprintf(r->why, sizeof r->why, "the guest was silent for %d s (--vm-timeout)",
                     g->timeout_s);
            kill_qemu(pid);
            break;
        }
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (ll) {
        line[ll] = '\0';
        check_line(line, r, (double)(now_ns() - t0) / 1e9, g->echo);
    }
    close(rfd);
    close(cfd);
    r->seconds = (double)(now_ns() - t0) / 1e9;
    r->qemu_exit = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (!r->why[0] && r->oom)
        snprintf(r->why, sizeof r->why, "the guest ran out of memory (raise --vm-mem)");
    if (!r->why[0] && r->qemu_exit != 0)
        snprintf(r->why, sizeof r->why, "qemu exited with status %d (see the console log)",
                 r->qemu_exit);
    if (!r->why[0] && !r->booted)
        snprintf(r->why, sizeof r->why, "the guest powered off before its /init ran");
    return r->why[0] ? -1 : 0;
}

int guest_kvm_works(const char *qemu, const char *kernel, const char *console, char *why,
                    size_t whylen)
{
    struct guest_spec g = {
        .qemu = qemu,
        .name = "dbscale-kvm-probe",
        .kernel = kernel,
        .append = "console=ttyS0 panic=-1 rdinit=/dbscale-kvm-probe",
        .accel = "kvm",
        .vcpus = 1,
        .mem_mb = 256,
        .console = console,
        .console_fd = -1,
        .timeout_s = 20,
    };
    struct guest_result r;
    guest_run(&g, &r);
    if (r.panicked) /* it booted as far as looking for an init: KVM runs kernels */
        return 1;
    snprintf(why, whylen, "%s", r.why[0] ? r.why : "the probe kernel never got as far as its init");
    return 0;
}
