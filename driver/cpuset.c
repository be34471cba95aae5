/*
 * cpuset.c - holding a database server to k CPUs, and proving that it held.
 *
 * The room exists so that "the server ran on k CPUs" is a fact read back from
 * the kernel, not a wish. The idea that makes it work: a task is a thread
 * (/proc/PID/task/TID), every method acts on every task of every process the
 * caller names, and every check goes back to /proc (Cpus_allowed_list) and
 * sysfs (the online list) after the change. Three methods:
 *
 *   affinity  sched_setaffinity on each task, walked again until no new
 *             threads turn up (a thread born mid-walk inherits the old mask)
 *   cpuset    a cgroup dbscale-PID under the cpuset root (v1 or v2); the
 *             server's processes are moved in whole (cgroup.procs), so its
 *             future children are held too
 *   hotplug   CPUs taken offline, so the kernel itself has fewer CPUs
 *
 * It must never leave a CPU offline. Before the first CPU goes down, a
 * guardian process (double-forked, its own session, deaf to INT/TERM/HUP) is
 * told which CPUs to restore; when our process is gone by any path, SIGKILL
 * included (its socket reaches EOF, or a pidfd on us fires), it brings them
 * back. CPU 0 is never
 * offlined. It never prints and never asserts: failures come back as
 * messages. cpuset_close() does no malloc (getdents64, open/read/write), as
 * it runs on the sweep's signal path; controls live in a small static pool
 * for the same reason, so closing twice is harmless.
 */
#include "cpuset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXCPU   CPU_SETSIZE
#define SYSCPU   "/sys/devices/system/cpu"
#define NCTL     8
#define WAIT_MS  5000 /* for the online list to settle, the guardian to start */
#define CG_ROUND 100  /* rounds of moving tasks out of our cgroup on close */

struct cpuset_ctl {
    atomic_int used; /* slot taken; 0 again once closed */
    enum cpu_method m;
    /* cpuset */
    int v2;
    char root[PATH_MAX]; /* the cpuset hierarchy's root, where tasks go back */
    char dir[PATH_MAX];  /* our cgroup; "" when none */
    /* hotplug */
    int fd;        /* socket to the guardian; -1 when none */
    cpu_set_t off; /* CPUs we took offline (the guardian knows each) */
};

static struct cpuset_ctl pool[NCTL];

int cpuset_method_parse(const char *s)
{
    if (!s)
        return -1;
    if (!strcmp(s, "affinity"))
        return CPU_AFFINITY;
    if (!strcmp(s, "cpuset"))
        return CPU_CPUSET;
    if (!strcmp(s, "hotplug"))
        return CPU_HOTPLUG;
    return -1;
}

const char *cpuset_method_name(enum cpu_method m)
{
    switch (m) {
    case CPU_AFFINITY:
        return "affinity";
    case CPU_CPUSET:
        return "cpuset";
    case CPU_HOTPLUG:
        return "hotplug";
    }
    return "?";
}

/* ---- lists and masks ---- */

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* "0-3,6" (surrounding whitespace allowed) into set. Count, or -1. An empty
 * list is malformed unless allow_empty (sysfs writes an empty "offline"). */
static int mask_parse(const char *s, cpu_set_t *set, int allow_empty)
{
    CPU_ZERO(set);
    while (is_space(*s))
        s++;
    if (!*s)
        return allow_empty ? 0 : -1;
    for (;;) {
        long lo = 0, hi;
        if (*s < '0' || *s > '9')
            return -1;
        for (; *s >= '0' && *s <= '9'; s++)
            if ((lo = lo * 10 + (*s - '0')) >= MAXCPU)
                return -1;
        hi = lo;
        if (*s == '-') {
            s++;
            if (*s < '0' || *s > '9')
                return -1;
            for (hi = 0; *s >= '0' && *s <= '9'; s++)
                if ((hi = hi * 10 + (*s - '0')) >= MAXCPU)
                    return -1;
        }
        if (lo > hi)
            return -1;
        for (long i = lo; i <= hi; i++)
            CPU_SET((int)i, set);
        if (*s != ',')
            break;
        s++;
    }
    while (is_space(*s))
        s++;
    return *s ? -1 : CPU_COUNT(set);
}

static void mask_format(const cpu_set_t *set, char *buf, size_t len)
{
    size_t at = 0;
    if (!len)
        return;
    buf[0] = 0;
    for (int i = 0; i < MAXCPU; i++) {
        if (!CPU_ISSET(i, set))
            continue;
        int j = i;
        while (j + 1 < MAXCPU && CPU_ISSET(j + 1, set))
            j++;
        int n = j > i ? snprintf(buf + at, len - at, "%s%d-%d", at ? "," : "", i, j)
                      : snprintf(buf + at, len - at, "%s%d", at ? "," : "", i);
        if (n < 0 || (size_t)n >= len - at)
            return; /* truncated, still terminated */
        at += (size_t)n;
        i = j;
    }
}

static void mask_from_ids(const int *ids, int n, cpu_set_t *set)
{
    CPU_ZERO(set);
    for (int i = 0; i < n; i++)
        if (ids[i] >= 0 && ids[i] < MAXCPU)
            CPU_SET(ids[i], set);
}

static int mask_to_ids(const cpu_set_t *set, int *ids, int max)
{
    int n = 0;
    for (int i = 0; i < MAXCPU; i++) {
        if (!CPU_ISSET(i, set))
            continue;
        if (n >= max)
            return -1;
        ids[n++] = i;
    }
    return n;
}

int cpuset_parse(const char *list, int *ids, int max)
{
    cpu_set_t set;
    if (!list || mask_parse(list, &set, 0) < 0)
        return -1;
    return mask_to_ids(&set, ids, max);
}

void cpuset_format(const int *ids, int n, char *buf, size_t len)
{
    cpu_set_t set;
    mask_from_ids(ids, n, &set);
    mask_format(&set, buf, len);
}

/* ---- small file helpers: open/read/write only, safe on the signal path ---- */

/* Whole (small) file into buf, terminated. Bytes, or -errno. */
static ssize_t read_text(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    size_t at = 0;
    while (at + 1 < len) {
        ssize_t r = read(fd, buf + at, len - 1 - at);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int e = errno;
            close(fd);
            return -e;
        }
        if (r == 0)
            break;
        at += (size_t)r;
    }
    buf[at] = 0;
    close(fd);
    return (ssize_t)at;
}

/* One write of s to path (sysfs and cgroup files take one value per write). */
static int write_text(const char *path, const char *s)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -errno;
    ssize_t w;
    do
        w = write(fd, s, strlen(s));
    while (w < 0 && errno == EINTR);
    int e = w < 0 ? errno : 0;
    if (close(fd) < 0 && !e && errno != EINTR)
        e = errno;
    return -e;
}

static int read_mask(const char *path, cpu_set_t *set, int allow_empty, char *err, size_t errlen)
{
    char buf[4096];
    ssize_t r = read_text(path, buf, sizeof buf);
    if (r < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror((int)-r));
        return -1;
    }
    if (mask_parse(buf, set, allow_empty) < 0) {
        snprintf(err, errlen, "%s: cannot parse CPU list '%.64s'", path, buf);
        return -1;
    }
    return 0;
}

int cpuset_online(int *ids, int max)
{
    cpu_set_t set;
    char err[16];
    if (read_mask(SYSCPU "/online", &set, 0, err, sizeof err) < 0)
        return -1;
    return mask_to_ids(&set, ids, max);
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* ---- walking the tasks of processes ---- */

typedef int (*task_fn)(pid_t pid, pid_t tid, void *arg);

/* Call fn for every task of pid (0 if pid is gone: it has no tasks). Stops at
 * the first fn that returns nonzero and returns that. */
static int each_task(pid_t pid, task_fn fn, void *arg, char *err, size_t errlen)
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT || errno == ESRCH)
            return 0;
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    int rc = 0;
    for (;;) {
        ssize_t n = getdents64(fd, buf, sizeof buf);
        if (n <= 0)
            break; /* end, or the process went away mid-walk */
        for (ssize_t at = 0; at < n && !rc;) {
            struct dirent64 *d = (struct dirent64 *)(buf + at);
            at += d->d_reclen;
            if (d->d_name[0] >= '1' && d->d_name[0] <= '9')
                rc = fn(pid, (pid_t)atoi(d->d_name), arg);
        }
        if (rc)
            break;
    }
    close(fd);
    return rc;
}

struct aff {
    const cpu_set_t *set;
    int n;
    char *err;
    size_t errlen;
};

static int aff_task(pid_t pid, pid_t tid, void *arg)
{
    struct aff *a = arg;
    a->n++;
    if (sched_setaffinity(tid, sizeof *a->set, a->set) == 0 || errno == ESRCH)
        return 0;
    char want[256];
    mask_format(a->set, want, sizeof want);
    snprintf(a->err, a->errlen, "pid %d tid %d: sched_setaffinity(%s): %s", (int)pid, (int)tid,
             want, strerror(errno));
    return -1;
}

/* Every task of pids to set. A thread created while we walk inherits its
 * creator's old mask, so walk again until a walk finds no more tasks. */
static int set_affinity(const pid_t *pids, int npids, const cpu_set_t *set, char *err,
                        size_t errlen)
{
    int prev = -1;
    for (int pass = 0; pass < 5; pass++) {
        struct aff a = {set, 0, err, errlen};
        for (int i = 0; i < npids; i++)
            if (each_task(pids[i], aff_task, &a, err, errlen))
                return -1;
        if (a.n == prev)
            break;
        prev = a.n;
    }
    return 0;
}

struct chk {
    const cpu_set_t *want;
    const cpu_set_t *online; /* hotplug: compare allowed & online */
    int n;
    char *err;
    size_t errlen;
};

static int chk_task(pid_t pid, pid_t tid, void *arg)
{
    struct chk *c = arg;
    char path[64], buf[8192], line[1024];
    snprintf(path, sizeof path, "/proc/%d/task/%d/status", (int)pid, (int)tid);
    ssize_t r = read_text(path, buf, sizeof buf);
    if (r == -ENOENT || r == -ESRCH)
        return 0; /* the task ended */
    if (r < 0) {
        snprintf(c->err, c->errlen, "%s: %s", path, strerror((int)-r));
        return -1;
    }
    const char *p = strstr(buf, "\nCpus_allowed_list:");
    if (!p) {
        snprintf(c->err, c->errlen, "%s: no Cpus_allowed_list", path);
        return -1;
    }
    p += strlen("\nCpus_allowed_list:");
    size_t n = strcspn(p, "\n");
    if (n >= sizeof line)
        n = sizeof line - 1;
    memcpy(line, p, n);
    line[n] = 0;
    cpu_set_t have;
    if (mask_parse(line, &have, 0) < 0) {
        snprintf(c->err, c->errlen, "%s: cannot parse Cpus_allowed_list '%.64s'", path, line);
        return -1;
    }
    c->n++;
    cpu_set_t eff = have;
    if (c->online)
        CPU_AND(&eff, &have, c->online);
    if (CPU_EQUAL(&eff, c->want))
        return 0;
    char h[256], w[256];
    mask_format(&have, h, sizeof h);
    mask_format(c->want, w, sizeof w);
    if (c->online) {
        char e[256];
        mask_format(&eff, e, sizeof e);
        snprintf(c->err, c->errlen,
                 "pid %d tid %d: Cpus_allowed_list %s, so it can run on online CPUs %s, wanted %s",
                 (int)pid, (int)tid, h, e, w);
    } else {
        snprintf(c->err, c->errlen, "pid %d tid %d: Cpus_allowed_list %s, wanted %s", (int)pid,
                 (int)tid, h, w);
    }
    return -1;
}

/* ---- cpuset cgroup ---- */

/* The cpuset hierarchy: a v1 "cgroup" mount with the cpuset option, else a
 * cgroup2 mount whose cgroup.controllers lists cpuset. 0, or -1. */
static int find_cpuset_root(char *root, size_t len, int *v2)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return -1;
    char line[4096], v2root[PATH_MAX] = "";
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        /* id parent maj:min root mountpoint opts... - fstype source superopts */
        char *sep = strstr(line, " - ");
        char mnt[PATH_MAX], fstype[64], source[256], super[1024] = "";
        if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
            sscanf(sep + 3, "%63s %255s %1023s", fstype, source, super) < 2)
            continue;
        if (!strcmp(fstype, "cgroup")) {
            for (char *sv, *tok = strtok_r(super, ",", &sv); tok; tok = strtok_r(NULL, ",", &sv))
                if (!strcmp(tok, "cpuset")) {
                    snprintf(root, len, "%s", mnt);
                    *v2 = 0;
                    found = 1;
                }
        } else if (!strcmp(fstype, "cgroup2") && !v2root[0]) {
            char path[PATH_MAX + 32], ctl[1024];
            snprintf(path, sizeof path, "%s/cgroup.controllers", mnt);
            if (read_text(path, ctl, sizeof ctl) > 0)
                for (char *sv, *tok = strtok_r(ctl, " \n", &sv); tok;
                     tok = strtok_r(NULL, " \n", &sv))
                    if (!strcmp(tok, "cpuset"))
                        snprintf(v2root, sizeof v2root, "%s", mnt);
        }
    }
    fclose(f);
    if (!found && v2root[0]) {
        snprintf(root, len, "%s", v2root);
        *v2 = 1;
        found = 1;
    }
    return found ? 0 : -1;
}

static int cg_write(const char *dir, const char *file, const char *val, char *err, size_t errlen)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int rc = write_text(path, val);
    if (rc < 0)
        snprintf(err, errlen, "writing '%s' to %s: %s", val, path, strerror(-rc));
    return rc;
}

static int cg_open(struct cpuset_ctl *c, char *err, size_t errlen)
{
    char path[PATH_MAX + 64], buf[4096];
    if (find_cpuset_root(c->root, sizeof c->root, &c->v2) < 0) {
        snprintf(err, errlen,
                 "no cpuset cgroup controller here (neither a cgroup v1 cpuset mount nor "
                 "cgroup v2 with cpuset in cgroup.controllers)");
        return -1;
    }
    if (c->v2) {
        snprintf(path, sizeof path, "%s/cgroup.subtree_control", c->root);
        if (read_text(path, buf, sizeof buf) < 0 || !strstr(buf, "cpuset"))
            if (cg_write(c->root, "cgroup.subtree_control", "+cpuset", err, errlen) < 0)
                return -1;
    }
    if (snprintf(c->dir, sizeof c->dir, "%s/dbscale-%d", c->root, (int)getpid()) >=
        (int)sizeof c->dir) {
        snprintf(err, errlen, "cgroup path too long under %s", c->root);
        c->dir[0] = 0;
        return -1;
    }
    /* EEXIST: left by an earlier process with our pid, which is gone; reuse it. */
    if (mkdir(c->dir, 0755) < 0 && errno != EEXIST) {
        int e = errno;
        snprintf(err, errlen, "mkdir %s: %s%s", c->dir, strerror(e),
                 e == EACCES || e == EPERM || e == EROFS ? " (the cpuset method needs root)" : "");
        c->dir[0] = 0;
        return -1;
    }
    if (!c->v2) {
        /* A new v1 cpuset starts with no CPUs and no memory nodes and takes
         * no tasks until both are set: start from the parent's. */
        const char *files[] = {"cpuset.mems", "cpuset.cpus"};
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s", c->root, files[i]);
            ssize_t r = read_text(path, buf, sizeof buf);
            if (r < 0) {
                snprintf(err, errlen, "%s: %s", path, strerror((int)-r));
                return -1;
            }
            buf[strcspn(buf, "\n")] = 0;
            if (cg_write(c->dir, files[i], buf, err, errlen) < 0)
                return -1;
        }
    }
    return 0;
}

static int cg_apply(struct cpuset_ctl *c, const pid_t *pids, int npids, const cpu_set_t *want,
                    char *err, size_t errlen)
{
    char list[1024], pid[32];
    mask_format(want, list, sizeof list);
    if (cg_write(c->dir, "cpuset.cpus", list, err, errlen) < 0)
        return -1;
    /* cgroup.procs (v1 too) moves a process with all its threads at once. */
    for (int i = 0; i < npids; i++) {
        snprintf(pid, sizeof pid, "%d", (int)pids[i]);
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/cgroup.procs", c->dir);
        int rc = write_text(path, pid);
        if (rc == -ESRCH)
            continue;
        if (rc < 0) {
            snprintf(err, errlen, "moving pid %s into %s: %s", pid, c->dir, strerror(-rc));
            return -1;
        }
    }
    /* The kernel keeps what sched_setaffinity last asked for and intersects
     * it with the cpuset, so a task narrowed earlier would stay narrow. */
    return set_affinity(pids, npids, want, err, errlen);
}

/* Move every process out of our cgroup to the root, then remove it. */
static void cg_close(struct cpuset_ctl *c)
{
    char path[PATH_MAX + 64], dst[PATH_MAX + 64], buf[8192], e[64];
    if (!c->dir[0])
        return;
    cpu_set_t online;
    int have_online = read_mask(SYSCPU "/online", &online, 0, buf, sizeof buf) == 0;
    snprintf(path, sizeof path, "%s/cgroup.procs", c->dir);
    snprintf(dst, sizeof dst, "%s/cgroup.procs", c->root);
    for (int round = 0; round < CG_ROUND; round++) {
        ssize_t r = read_text(path, buf, sizeof buf);
        if (r <= 0)
            break;
        /* Only whole lines: a full buffer may end mid-number; the next round
         * rereads what is left. */
        for (char *p = buf, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
            *nl = 0;
            if (!*p)
                continue;
            write_text(dst, p);
            /* Leaving the cgroup keeps the mask apply() asked for, in
             * processes forked since too: widen it again. */
            pid_t pid = (pid_t)atoi(p);
            if (have_online)
                set_affinity(&pid, 1, &online, e, sizeof e);
        }
    }
    for (int i = 0; i < 100; i++) {
        if (rmdir(c->dir) == 0 || errno == ENOENT)
            break;
        if (errno != EBUSY)
            break;
        sleep_ms(10);
    }
    c->dir[0] = 0;
}

/* ---- hotplug ---- */

/* "/sys/devices/system/cpu/cpuN/online" without stdio: the guardian runs
 * between fork and _exit of a possibly multi-threaded program. */
static void online_path(int cpu, char *buf)
{
    static const char pre[] = SYSCPU "/cpu", post[] = "/online";
    char digits[12];
    int n = 0;
    do
        digits[n++] = (char)('0' + cpu % 10);
    while ((cpu /= 10) > 0);
    memcpy(buf, pre, sizeof pre - 1);
    buf += sizeof pre - 1;
    while (n > 0)
        *buf++ = digits[--n];
    memcpy(buf, post, sizeof post);
}

static int set_online(int cpu, int on)
{
    char path[64];
    online_path(cpu, path);
    return write_text(path, on ? "1" : "0");
}

/* Bring cpu back, retrying while the kernel is busy with another hotplug. */
static void restore_cpu(int cpu)
{
    for (int i = 0; i < 200; i++) {
        int rc = set_online(cpu, 1);
        if (rc == 0 || (rc != -EBUSY && rc != -EAGAIN && rc != -EINTR))
            return;
        sleep_ms(50);
    }
}

/* The guardian: remembers "+N\n" (CPU N is about to go offline), and brings
 * every remembered CPU back and exits on "R\n", on EOF, or when the owner
 * process has exited (a pidfd: a child the owner forked without exec still
 * holds the socket open). Async-signal-safe calls only. */
static _Noreturn void guardian(int sock, pid_t owner)
{
    static const int ign[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGTTIN, SIGTTOU};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    for (size_t i = 0; i < sizeof ign / sizeof ign[0]; i++)
        sigaction(ign[i], &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    /* Hold nothing of our parent's: stdio to /dev/null, the socket as fd 3,
     * every other fd closed (a held pipe would keep a caller waiting). */
    int s = fcntl(sock, F_DUPFD, 3);
    int null = open("/dev/null", O_RDWR);
    if (s < 0 || null < 0)
        _exit(1);
    for (int i = 0; i < 3; i++)
        dup2(null, i);
    if (s != 3 && dup2(s, 3) < 0)
        _exit(1);
    if (syscall(SYS_close_range, 4U, ~0U, 0U) < 0)
        for (int i = 4; i < 4096; i++)
            close(i);
    if (chdir("/") < 0)
        _exit(1);
    write_text("/proc/self/oom_score_adj", "-1000"); /* best effort */
    /* The owner is alive: it waits for our "R". No pidfd (kernel < 5.3):
     * the socket's EOF alone tells. */
    int pfd = (int)syscall(SYS_pidfd_open, owner, 0U);

    static unsigned char cpus[MAXCPU];
    if (write(3, "R", 1) != 1)
        _exit(1);
    char buf[256];
    int num = -1, done = 0;
    while (!done) {
        struct pollfd p[2] = {{3, POLLIN, 0}, {pfd, POLLIN, 0}};
        if (poll(p, pfd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
            break;
        done = pfd >= 0 && p[1].revents;
        /* Read all there is: each "+N" was sent before its CPU went down,
         * so once the owner is gone the socket holds every one. */
        for (;;) {
            ssize_t r = recv(3, buf, sizeof buf, MSG_DONTWAIT);
            if (r < 0 && errno == EINTR)
                continue;
            if (r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK))
                done = 1; /* EOF: our process is gone */
            if (r <= 0)
                break;
            for (ssize_t i = 0; i < r; i++) {
                char ch = buf[i];
                if (ch == '+')
                    num = 0;
                else if (ch >= '0' && ch <= '9' && num >= 0 && num < MAXCPU)
                    num = num * 10 + (ch - '0');
                else if (ch == '\n' && num >= 0 && num < MAXCPU)
                    cpus[num] = 1, num = -1;
                else if (ch == 'R')
                    done = 1;
            }
        }
    }
    for (int i = 1; i < MAXCPU; i++)
        if (cpus[i])
            restore_cpu(i);
    _exit(0);
}

static int start_guardian(struct cpuset_ctl *c, char *err, size_t errlen)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        snprintf(err, errlen, "socketpair: %s", strerror(errno));
        return -1;
    }
    /* Signals stay blocked from fork until the guardian ignores them, so a
     * Ctrl-C in between cannot kill it. */
    sigset_t all, old;
    pid_t owner = getpid();
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pid_t mid = fork();
    if (mid == 0) {
        /* Its own session: the terminal's INT/HUP to our group miss it.
         * Double fork: the guardian is reparented, never our zombie. */
        close(sv[0]);
        setsid();
        pid_t g = fork();
        if (g == 0)
            guardian(sv[1], owner);
        _exit(g < 0);
    }
    int fork_errno = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    close(sv[1]);
    if (mid < 0) {
        close(sv[0]);
        snprintf(err, errlen, "fork: %s", strerror(fork_errno));
        return -1;
    }
    int st = 0;
    while (waitpid(mid, &st, 0) < 0 && errno == EINTR)
        ;
    /* ECHILD (SIGCHLD ignored by the caller) leaves st 0: the ready byte decides. */
    struct pollfd p = {sv[0], POLLIN, 0};
    char ch = 0;
    int ready = WIFEXITED(st) && WEXITSTATUS(st) == 0 && poll(&p, 1, WAIT_MS) == 1 &&
                read(sv[0], &ch, 1) == 1 && ch == 'R';
    if (!ready) {
        close(sv[0]);
        snprintf(err, errlen, "the hotplug guardian process did not start");
        return -1;
    }
    c->fd = sv[0];
    return 0;
}

static int tell_guardian(struct cpuset_ctl *c, const char *msg)
{
    size_t len = strlen(msg);
    while (len) {
        ssize_t w = send(c->fd, msg, len, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        msg += w;
        len -= (size_t)w;
    }
    return 0;
}

static int hotplug_refused(int rc)
{
    return rc == -EPERM || rc == -EINVAL || rc == -EBUSY || rc == -EACCES || rc == -EROFS ||
           rc == -EOPNOTSUPP;
}

static int hp_open(struct cpuset_ctl *c, char *err, size_t errlen)
{
    cpu_set_t online;
    char path[64];
    if (geteuid() != 0) {
        snprintf(err, errlen, "CPU hotplug is not allowed here: it needs root");
        return -1;
    }
    if (read_mask(SYSCPU "/online", &online, 0, err, errlen) < 0)
        return -1;
    /* Writing "1" to an online CPU is a no-op where hotplug works, and fails
     * where sysfs is read-only or locked down. */
    int probed = 0;
    for (int i = 1; i < MAXCPU && !probed; i++) {
        if (!CPU_ISSET(i, &online))
            continue;
        online_path(i, path);
        if (access(path, F_OK) < 0)
            continue;
        int rc = set_online(i, 1);
        if (rc < 0) {
            snprintf(err, errlen, "CPU hotplug is not allowed here: %s: %s", path, strerror(-rc));
            return -1;
        }
        probed = 1;
    }
    if (!probed) {
        snprintf(err, errlen,
                 "CPU hotplug is not allowed here: no online CPU besides 0 has an online switch "
                 "in " SYSCPU);
        return -1;
    }
    return start_guardian(c, err, errlen);
}

/* Every CPU we took offline back online (the guardian's set stays as is; a
 * second restore of an online CPU is a no-op). */
static void hp_restore(struct cpuset_ctl *c)
{
    for (int i = 1; i < MAXCPU; i++)
        if (CPU_ISSET(i, &c->off)) {
            restore_cpu(i);
            CPU_CLR(i, &c->off);
        }
}

/* A cgroup v1 cpuset below dir that holds one of cpus: v1 drops an offlined
 * CPU from every cpuset for good (it is not put back when the CPU returns),
 * so offlining it would shrink that cgroup, a container's say, for ever.
 * 1 with its path in where, else 0. */
static int v1_holder(const char *dir, int depth, const cpu_set_t *cpus, char *where, size_t len)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d));) {
        char sub[PATH_MAX], path[PATH_MAX + 16], buf[4096], list[256];
        cpu_set_t have;
        if (e->d_type != DT_DIR || e->d_name[0] == '.' ||
            snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub)
            continue;
        snprintf(path, sizeof path, "%s/cpuset.cpus", sub);
        if (read_text(path, buf, sizeof buf) >= 0 && mask_parse(buf, &have, 1) > 0) {
            mask_format(&have, list, sizeof list);
            CPU_AND(&have, &have, cpus);
            if (CPU_COUNT(&have) > 0) {
                snprintf(where, len, "%s (cpuset.cpus %s)", sub, list);
                found = 1;
            }
        }
        if (!found && depth < 16)
            found = v1_holder(sub, depth + 1, cpus, where, len);
    }
    closedir(d);
    return found;
}

static int hp_apply(struct cpuset_ctl *c, const pid_t *pids, int npids, const cpu_set_t *want,
                    char *err, size_t errlen)
{
    cpu_set_t present, online, now;
    char w[1024], o[1024], path[64], msg[32];
    mask_format(want, w, sizeof w);
    if (!CPU_ISSET(0, want)) {
        snprintf(err, errlen,
                 "hotplug never takes CPU 0 offline, so the CPU list must hold 0 "
                 "(got %s)",
                 w);
        return -1;
    }
    if (read_mask(SYSCPU "/present", &present, 0, err, errlen) < 0 ||
        read_mask(SYSCPU "/online", &online, 0, err, errlen) < 0)
        return -1;
    for (int i = 0; i < MAXCPU; i++) {
        if (CPU_ISSET(i, want) && !CPU_ISSET(i, &present)) {
            mask_format(&present, o, sizeof o);
            snprintf(err, errlen, "CPU %d is not present (present: %s)", i, o);
            return -1;
        }
        online_path(i, path);
        if (CPU_ISSET(i, &online) && !CPU_ISSET(i, want) && access(path, F_OK) < 0) {
            snprintf(err, errlen, "CPU %d cannot be taken offline (no %s)", i, path);
            return -1;
        }
    }
    cpu_set_t down;
    CPU_ZERO(&down);
    for (int i = 1; i < MAXCPU; i++)
        if (CPU_ISSET(i, &online) && !CPU_ISSET(i, want))
            CPU_SET(i, &down);
    char root[PATH_MAX], where[PATH_MAX + 64];
    int v2;
    if (CPU_COUNT(&down) > 0 && find_cpuset_root(root, sizeof root, &v2) == 0 && !v2 &&
        v1_holder(root, 0, &down, where, sizeof where)) {
        snprintf(err, errlen,
                 "CPU hotplug is not safe here: the cgroup v1 cpuset %s would lose the CPUs "
                 "for good; use the affinity or cpuset method",
                 where);
        return -1;
    }
    /* Up first, so we never run on fewer CPUs than either list. */
    for (int i = 1; i < MAXCPU; i++) {
        if (!CPU_ISSET(i, want) || CPU_ISSET(i, &online))
            continue;
        int rc = set_online(i, 1);
        if (rc < 0) {
            snprintf(err, errlen, "%sCPU %d: cannot bring it online: %s",
                     hotplug_refused(rc) ? "CPU hotplug is not allowed here: " : "", i,
                     strerror(-rc));
            return -1;
        }
        CPU_CLR(i, &c->off);
    }
    for (int i = MAXCPU - 1; i > 0; i--) {
        if (CPU_ISSET(i, want) || !CPU_ISSET(i, &online))
            continue;
        /* The guardian hears of each CPU before it goes down. */
        snprintf(msg, sizeof msg, "+%d\n", i);
        if (c->fd < 0 || tell_guardian(c, msg) < 0) {
            hp_restore(c);
            snprintf(err, errlen, "the hotplug guardian process is gone; not taking CPUs offline");
            return -1;
        }
        int rc = set_online(i, 0);
        if (rc < 0) {
            hp_restore(c);
            snprintf(err, errlen, "%sCPU %d: cannot take it offline: %s",
                     hotplug_refused(rc) ? "CPU hotplug is not allowed here: " : "", i,
                     strerror(-rc));
            return -1;
        }
        CPU_SET(i, &c->off);
    }
    for (int waited = 0;; waited++) {
        if (read_mask(SYSCPU "/online", &now, 0, err, errlen) < 0)
            return -1;
        if (CPU_EQUAL(&now, want))
            break;
        if (waited >= WAIT_MS) {
            mask_format(&now, o, sizeof o);
            snprintf(err, errlen, "online CPUs are %s after %d ms, wanted %s", o, WAIT_MS, w);
            return -1;
        }
        sleep_ms(1);
    }
    /* Tasks may use every CPU, so the online set alone decides. */
    return set_affinity(pids, npids, &present, err, errlen);
}

/* ---- the face ---- */

struct cpuset_ctl *cpuset_open(enum cpu_method m, char *err, size_t errlen)
{
    struct cpuset_ctl *c = NULL;
    for (int i = 0; i < NCTL && !c; i++) {
        int zero = 0;
        if (atomic_compare_exchange_strong(&pool[i].used, &zero, 1))
            c = &pool[i];
    }
    if (!c) {
        snprintf(err, errlen, "more than %d CPU controls open at once", NCTL);
        return NULL;
    }
    c->m = m;
    c->v2 = 0;
    c->root[0] = c->dir[0] = 0;
    c->fd = -1;
    CPU_ZERO(&c->off);
    int rc = 0;
    if (m == CPU_CPUSET)
        rc = cg_open(c, err, errlen);
    else if (m == CPU_HOTPLUG)
        rc = hp_open(c, err, errlen);
    else if (m != CPU_AFFINITY) {
        snprintf(err, errlen, "unknown CPU method %d", (int)m);
        rc = -1;
    }
    if (rc < 0) {
        cpuset_close(c, NULL, 0);
        return NULL;
    }
    return c;
}

int cpuset_apply(struct cpuset_ctl *c, const pid_t *pids, int npids, const int *cpus, int ncpus,
                 char *err, size_t errlen)
{
    cpu_set_t want, online;
    if (!c || !atomic_load(&c->used)) {
        snprintf(err, errlen, "CPU control is not open");
        return -1;
    }
    if (ncpus <= 0) {
        snprintf(err, errlen, "empty CPU list");
        return -1;
    }
    for (int i = 0; i < ncpus; i++)
        if (cpus[i] < 0 || cpus[i] >= MAXCPU) {
            snprintf(err, errlen, "CPU %d is out of range", cpus[i]);
            return -1;
        }
    mask_from_ids(cpus, ncpus, &want);
    if (c->m == CPU_HOTPLUG)
        return hp_apply(c, pids, npids, &want, err, errlen);
    if (read_mask(SYSCPU "/online", &online, 0, err, errlen) < 0)
        return -1;
    for (int i = 0; i < MAXCPU; i++)
        if (CPU_ISSET(i, &want) && !CPU_ISSET(i, &online)) {
            char o[1024];
            mask_format(&online, o, sizeof o);
            snprintf(err, errlen, "CPU %d is not online (online: %s)", i, o);
            return -1;
        }
    if (c->m == CPU_CPUSET)
        return cg_apply(c, pids, npids, &want, err, errlen);
    return set_affinity(pids, npids, &want, err, errlen);
}

int cpuset_verify(struct cpuset_ctl *c, const pid_t *pids, int npids, const int *cpus, int ncpus,
                  char *err, size_t errlen)
{
    cpu_set_t want, online;
    mask_from_ids(cpus, ncpus, &want);
    struct chk k = {&want, NULL, 0, err, errlen};
    if (c && c->m == CPU_HOTPLUG) {
        if (read_mask(SYSCPU "/online", &online, 0, err, errlen) < 0)
            return -1;
        if (!CPU_EQUAL(&online, &want)) {
            char o[1024], w[1024];
            mask_format(&online, o, sizeof o);
            mask_format(&want, w, sizeof w);
            snprintf(err, errlen, "online CPUs are %s, wanted %s", o, w);
            return -1;
        }
        k.online = &online;
    }
    for (int i = 0; i < npids; i++)
        if (each_task(pids[i], chk_task, &k, err, errlen))
            return -1;
    if (npids > 0 && k.n == 0) {
        snprintf(err, errlen, "none of the %d processes (pid %d, ...) exists any more", npids,
                 (int)pids[0]);
        return -1;
    }
    return 0;
}

void cpuset_close(struct cpuset_ctl *c, const pid_t *pids, int npids)
{
    if (c && atomic_load(&c->used)) {
        if (c->m == CPU_CPUSET)
            cg_close(c);
        if (c->m == CPU_HOTPLUG) {
            hp_restore(c);
            if (c->fd >= 0) {
                tell_guardian(c, "R\n");
                close(c->fd);
                c->fd = -1;
            }
        }
        atomic_store(&c->used, 0);
    }
    cpu_set_t online;
    char err[16];
    if (npids > 0 && read_mask(SYSCPU "/online", &online, 0, err, sizeof err) == 0)
        set_affinity(pids, npids, &online, err, sizeof err);
}
