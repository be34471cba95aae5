/*
 * hotplug.c - the hotplug method of cpuset.c: CPUs taken offline in
 * /sys/devices/system/cpu/cpuN/online, so the kernel itself has fewer CPUs.
 *
 * The one idea: before the first CPU goes down, a guardian process
 * (double-forked, its own session, deaf to INT/TERM/HUP) is started, and it
 * hears of each CPU before that CPU goes offline. When our process is gone by
 * any path, SIGKILL included (its socket reaches EOF, or a pidfd on us
 * fires), the guardian brings every one back.
 *
 * It must never leave a CPU offline, never take CPU 0 offline, and never
 * offline a CPU a cgroup v1 cpuset holds (v1 would drop it from that cpuset
 * for good). hotplug_close() runs on the sweep's signal path: no malloc, no
 * stdio, only open/read/write/send. It never prints: failures come back as
 * messages.
 */
#include "machine/hotplug.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "machine/cpuset_internal.h"
#include "core/procfs.h"

#define WAIT_MS 5000 /* for the online list to settle, the guardian to start */

static char cpu_prefix[1100]; /* sysfs ".../devices/system/cpu/cpu", set before any fork */

/* "/sys/devices/system/cpu/cpuN/online" without stdio: the guardian runs
 * between fork and _exit of a possibly multi-threaded program. */
static void online_path(int cpu, char *buf)
{
    static const char post[] = "/online";
    char digits[12];
    int n = 0;
    size_t pre = strlen(cpu_prefix);
    do
        digits[n++] = (char)('0' + cpu % 10);
    while ((cpu /= 10) > 0);
    memcpy(buf, cpu_prefix, pre);
    buf += pre;
    while (n > 0)
        *buf++ = digits[--n];
    memcpy(buf, post, sizeof post);
}

static int set_online(int cpu, int on)
{
    char path[1200];
    online_path(cpu, path);
    return procfs_write(path, on ? "1" : "0");
}

/* Bring cpu back, retrying while the kernel is busy with another hotplug. */
static void restore_cpu(int cpu)
{
    for (int i = 0; i < 200; i++) {
        int rc = set_online(cpu, 1);
        if (rc == 0 || (rc != -EBUSY && rc != -EAGAIN && rc != -EINTR))
            return;
        cpuset_sleep_ms(50);
    }
}

/* The guardian: remembers "+N\n" (CPU N is about to go offline), and brings
 * every remembered CPU back and exits on "R\n", on EOF, or when the owner
 * process has exited (a pidfd: a child the owner forked without exec still
 * holds the socket open). Async-signal-safe calls only. */
static _Noreturn void guardian(int sock, pid_t owner, unsigned char *cpus, int ncpus)
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
    procfs_write("/proc/self/oom_score_adj", "-1000"); /* best effort */
    /* The owner is alive: it waits for our "R". No pidfd (kernel < 5.3):
     * the socket's EOF alone tells. */
    int pfd = (int)syscall(SYS_pidfd_open, owner, 0U);

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
                else if (ch >= '0' && ch <= '9' && num >= 0 && num < ncpus)
                    num = num * 10 + (ch - '0');
                else if (ch == '\n' && num >= 0 && num < ncpus)
                    cpus[num] = 1, num = -1;
                else if (ch == 'R')
                    done = 1;
            }
        }
    }
    for (int i = 1; i < ncpus; i++)
        if (cpus[i])
            restore_cpu(i);
    _exit(0);
}

static int start_guardian(struct hotplug *h, char *err, size_t errlen)
{
    int sv[2];
    /* The guardian's table of CPUs to bring back, sized from the machine and
     * allocated before the fork (no malloc in a child of a threaded parent). */
    int ncpus = h->off.ncpus;
    unsigned char *cpus = calloc((size_t)ncpus, 1);
    if (!cpus) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        snprintf(err, errlen, "socketpair: %s", strerror(errno));
        free(cpus);
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
            guardian(sv[1], owner, cpus, ncpus);
        _exit(g < 0);
    }
    int fork_errno = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    free(cpus);
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
    h->fd = sv[0];
    return 0;
}

static int tell_guardian(struct hotplug *h, const char *msg)
{
    size_t len = strlen(msg);
    while (len) {
        ssize_t w = send(h->fd, msg, len, MSG_NOSIGNAL);
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

int hotplug_init(struct hotplug *h)
{
    if (!h->off.set && cpulist_init(&h->off) < 0)
        return -1;
    cpulist_clear(&h->off);
    h->fd = -1;
    /* each open: the sysfs root can be moved (tests), never after the fork */
    cpulist_sysfs_path(cpu_prefix, sizeof cpu_prefix, "cpu");
    return 0;
}

int hotplug_open(struct hotplug *h, char *err, size_t errlen)
{
    struct cpulist online;
    char path[1200];
    h->fd = -1;
    if (hotplug_init(h) < 0) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    if (geteuid() != 0) {
        snprintf(err, errlen, "CPU hotplug is not allowed here: it needs root");
        return -1;
    }
    if (cpulist_init(&online) < 0 || cpulist_online(&online, err, errlen) < 0) {
        cpulist_free(&online);
        return -1;
    }
    /* Writing "1" to an online CPU is a no-op where hotplug works, and fails
     * where sysfs is read-only or locked down. */
    int probed = 0;
    for (int i = cpulist_next(&online, 1); i >= 0 && !probed; i = cpulist_next(&online, i + 1)) {
        online_path(i, path);
        if (access(path, F_OK) < 0)
            continue;
        int rc = set_online(i, 1);
        if (rc < 0) {
            snprintf(err, errlen, "CPU hotplug is not allowed here: %s: %s", path, strerror(-rc));
            cpulist_free(&online);
            return -1;
        }
        probed = 1;
    }
    cpulist_free(&online);
    if (!probed) {
        snprintf(err, errlen,
                 "CPU hotplug is not allowed here: no online CPU besides 0 has an online switch "
                 "in %s",
                 cpu_prefix);
        return -1;
    }
    return start_guardian(h, err, errlen);
}

/* Every CPU we took offline back online (the guardian's set stays as is; a
 * second restore of an online CPU is a no-op). */
static void restore_all(struct hotplug *h)
{
    if (!h->off.set)
        return;
    for (int i = cpulist_next(&h->off, 1); i >= 0; i = cpulist_next(&h->off, i + 1)) {
        restore_cpu(i);
        cpulist_del(&h->off, i);
    }
}

/* A cgroup v1 cpuset below dir that holds one of cpus: v1 drops an offlined
 * CPU from every cpuset for good (it is not put back when the CPU returns),
 * so offlining it would shrink that cgroup, a container's say, for ever.
 * 1 with its path in where, else 0. */
static int v1_holder(const char *dir, int depth, const struct cpulist *cpus, struct cpulist *have,
                     char *where, size_t len)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d));) {
        char sub[PATH_MAX], path[PATH_MAX + 16], buf[4096], list[256], why[160];
        if (e->d_type != DT_DIR || e->d_name[0] == '.' ||
            snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name) >= (int)sizeof sub)
            continue;
        snprintf(path, sizeof path, "%s/cpuset.cpus", sub);
        if (procfs_read(path, buf, sizeof buf) >= 0 &&
            cpulist_parse(have, buf, CPULIST_EMPTY_OK, why, sizeof why) > 0) {
            cpulist_format(have, list, sizeof list);
            cpulist_and(have, have, cpus);
            if (cpulist_count(have) > 0) {
                snprintf(where, len, "%s (cpuset.cpus %s)", sub, list);
                found = 1;
            }
        }
        if (!found && depth < 16)
            found = v1_holder(sub, depth + 1, cpus, have, where, len);
    }
    closedir(d);
    return found;
}

/* The sets hotplug_apply works with; allocated per call (apply is never on
 * the signal path). */
struct sets {
    struct cpulist present, online, now, down;
};

static void sets_free(struct sets *s)
{
    cpulist_free(&s->present);
    cpulist_free(&s->online);
    cpulist_free(&s->now);
    cpulist_free(&s->down);
}

static int apply(struct hotplug *h, const pid_t *pids, int npids, const struct cpulist *want,
                 struct sets *s, char *err, size_t errlen)
{
    char w[1024], o[1024], path[1200], msg[32], rpath[1200];
    cpulist_format(want, w, sizeof w);
    if (!cpulist_has(want, 0)) {
        snprintf(err, errlen,
                 "hotplug never takes CPU 0 offline, so the CPU list must hold 0 "
                 "(got %s)",
                 w);
        return -1;
    }
    cpulist_sysfs_path(rpath, sizeof rpath, "present");
    if (cpulist_read(&s->present, rpath, 0, err, errlen) < 0 ||
        cpulist_online(&s->online, err, errlen) < 0)
        return -1;
    int ncpus = cpulist_ncpus(&s->present);
    for (int i = 0; i < ncpus; i++) {
        if (cpulist_has(want, i) && !cpulist_has(&s->present, i)) {
            cpulist_format(&s->present, o, sizeof o);
            snprintf(err, errlen, "CPU %d is not present (present: %s)", i, o);
            return -1;
        }
        if (!cpulist_has(&s->online, i) || cpulist_has(want, i))
            continue;
        online_path(i, path);
        if (access(path, F_OK) < 0) {
            snprintf(err, errlen, "CPU %d cannot be taken offline (no %s)", i, path);
            return -1;
        }
    }
    for (int i = 1; i < ncpus; i++)
        if (cpulist_has(&s->online, i) && !cpulist_has(want, i))
            cpulist_add(&s->down, i);
    char root[PATH_MAX], where[PATH_MAX + 64];
    int v2;
    if (cpulist_count(&s->down) > 0 && cpuset_find_root(root, sizeof root, &v2) == 0 && !v2 &&
        v1_holder(root, 0, &s->down, &s->now, where, sizeof where)) {
        snprintf(err, errlen,
                 "CPU hotplug is not safe here: the cgroup v1 cpuset %s would lose the CPUs "
                 "for good; use the affinity or cpuset method",
                 where);
        return -1;
    }
    /* Up first, so we never run on fewer CPUs than either list. */
    for (int i = 1; i < ncpus; i++) {
        if (!cpulist_has(want, i) || cpulist_has(&s->online, i))
            continue;
        int rc = set_online(i, 1);
        if (rc < 0) {
            snprintf(err, errlen, "%sCPU %d: cannot bring it online: %s",
                     hotplug_refused(rc) ? "CPU hotplug is not allowed here: " : "", i,
                     strerror(-rc));
            return -1;
        }
        cpulist_del(&h->off, i);
    }
    for (int i = ncpus - 1; i > 0; i--) {
        if (cpulist_has(want, i) || !cpulist_has(&s->online, i))
            continue;
        /* The guardian hears of each CPU before it goes down. */
        snprintf(msg, sizeof msg, "+%d\n", i);
        if (h->fd < 0 || tell_guardian(h, msg) < 0) {
            restore_all(h);
            snprintf(err, errlen, "the hotplug guardian process is gone; not taking CPUs offline");
            return -1;
        }
        int rc = set_online(i, 0);
        if (rc < 0) {
            restore_all(h);
            snprintf(err, errlen, "%sCPU %d: cannot take it offline: %s",
                     hotplug_refused(rc) ? "CPU hotplug is not allowed here: " : "", i,
                     strerror(-rc));
            return -1;
        }
        cpulist_add(&h->off, i);
    }
    for (int waited = 0;; waited++) {
        if (cpulist_online(&s->now, err, errlen) < 0)
            return -1;
        if (cpulist_equal(&s->now, want))
            break;
        if (waited >= WAIT_MS) {
            cpulist_format(&s->now, o, sizeof o);
            snprintf(err, errlen, "online CPUs are %s after %d ms, wanted %s", o, WAIT_MS, w);
            return -1;
        }
        cpuset_sleep_ms(1);
    }
    /* Tasks may use every CPU, so the online set alone decides. */
    return cpuset_set_affinity(pids, npids, &s->present, err, errlen);
}

int hotplug_apply(struct hotplug *h, const pid_t *pids, int npids, const struct cpulist *want,
                  char *err, size_t errlen)
{
    struct sets s = {0};
    int rc = -1;
    if (cpulist_init(&s.present) < 0 || cpulist_init(&s.online) < 0 || cpulist_init(&s.now) < 0 ||
        cpulist_init(&s.down) < 0)
        snprintf(err, errlen, "out of memory");
    else
        rc = apply(h, pids, npids, want, &s, err, errlen);
    sets_free(&s);
    return rc;
}

void hotplug_close(struct hotplug *h)
{
    restore_all(h);
    if (h->fd >= 0) {
        tell_guardian(h, "R\n");
        close(h->fd);
        h->fd = -1;
    }
}
