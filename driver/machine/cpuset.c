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
 *   hotplug   CPUs taken offline, so the kernel itself has fewer CPUs; that
 *             method and its guardian process live in hotplug.c
 *
 * This room is the lists and masks, the task walks, affinity, the cgroup
 * method and the dispatch; it lends hotplug.c its file and mask helpers
 * (cpuset_internal.h). It must never leave a CPU offline or a task narrowed
 * after close. It never prints and never asserts: failures come back as
 * messages. cpuset_close() does no malloc (getdents64, open/read/write), as
 * it runs on the sweep's signal path; controls live in a small static pool
 * for the same reason, so closing twice is harmless.
 */
#include "cpuset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cpuset_internal.h"
#include "hotplug.h"

#define NCTL     8
#define CG_ROUND 100 /* rounds of moving tasks out of our cgroup on close */

struct cpuset_ctl {
    atomic_int used; /* slot taken; 0 again once closed */
    enum cpu_method m;
    /* cpuset */
    int v2;
    char root[PATH_MAX]; /* the cpuset hierarchy's root, where tasks go back */
    char dir[PATH_MAX];  /* our cgroup; "" when none */
    struct hotplug hp;
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
int cpuset_mask_parse(const char *s, cpu_set_t *set, int allow_empty)
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

void cpuset_mask_format(const cpu_set_t *set, char *buf, size_t len)
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
    if (!list || cpuset_mask_parse(list, &set, 0) < 0)
        return -1;
    return mask_to_ids(&set, ids, max);
}

void cpuset_format(const int *ids, int n, char *buf, size_t len)
{
    cpu_set_t set;
    mask_from_ids(ids, n, &set);
    cpuset_mask_format(&set, buf, len);
}

/* ---- small file helpers: open/read/write only, safe on the signal path ---- */

/* Whole (small) file into buf, terminated. Bytes, or -errno. */
ssize_t cpuset_read_text(const char *path, char *buf, size_t len)
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
int cpuset_write_text(const char *path, const char *s)
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

int cpuset_read_mask(const char *path, cpu_set_t *set, int allow_empty, char *err, size_t errlen)
{
    char buf[4096];
    ssize_t r = cpuset_read_text(path, buf, sizeof buf);
    if (r < 0) {
        snprintf(err, errlen, "%s: %s", path, strerror((int)-r));
        return -1;
    }
    if (cpuset_mask_parse(buf, set, allow_empty) < 0) {
        snprintf(err, errlen, "%s: cannot parse CPU list '%.64s'", path, buf);
        return -1;
    }
    return 0;
}

int cpuset_online(int *ids, int max)
{
    cpu_set_t set;
    char err[16];
    if (cpuset_read_mask(SYSCPU "/online", &set, 0, err, sizeof err) < 0)
        return -1;
    return mask_to_ids(&set, ids, max);
}

void cpuset_sleep_ms(long ms)
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
    cpuset_mask_format(a->set, want, sizeof want);
    snprintf(a->err, a->errlen, "pid %d tid %d: sched_setaffinity(%s): %s", (int)pid, (int)tid,
             want, strerror(errno));
    return -1;
}

/* Every task of pids to set. A thread created while we walk inherits its
 * creator's old mask, so walk again until a walk finds no more tasks. */
int cpuset_set_affinity(const pid_t *pids, int npids, const cpu_set_t *set, char *err,
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
    ssize_t r = cpuset_read_text(path, buf, sizeof buf);
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
    if (cpuset_mask_parse(line, &have, 0) < 0) {
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
    cpuset_mask_format(&have, h, sizeof h);
    cpuset_mask_format(c->want, w, sizeof w);
    if (c->online) {
        char e[256];
        cpuset_mask_format(&eff, e, sizeof e);
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
int cpuset_find_root(char *root, size_t len, int *v2)
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
            if (cpuset_read_text(path, ctl, sizeof ctl) > 0)
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
    int rc = cpuset_write_text(path, val);
    if (rc < 0)
        snprintf(err, errlen, "writing '%s' to %s: %s", val, path, strerror(-rc));
    return rc;
}

static int cg_open(struct cpuset_ctl *c, char *err, size_t errlen)
{
    char path[PATH_MAX + 64], buf[4096];
    if (cpuset_find_root(c->root, sizeof c->root, &c->v2) < 0) {
        snprintf(err, errlen,
                 "no cpuset cgroup controller here (neither a cgroup v1 cpuset mount nor "
                 "cgroup v2 with cpuset in cgroup.controllers)");
        return -1;
    }
    if (c->v2) {
        snprintf(path, sizeof path, "%s/cgroup.subtree_control", c->root);
        if (cpuset_read_text(path, buf, sizeof buf) < 0 || !strstr(buf, "cpuset"))
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
            ssize_t r = cpuset_read_text(path, buf, sizeof buf);
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
    cpuset_mask_format(want, list, sizeof list);
    if (cg_write(c->dir, "cpuset.cpus", list, err, errlen) < 0)
        return -1;
    /* cgroup.procs (v1 too) moves a process with all its threads at once. */
    for (int i = 0; i < npids; i++) {
        snprintf(pid, sizeof pid, "%d", (int)pids[i]);
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/cgroup.procs", c->dir);
        int rc = cpuset_write_text(path, pid);
        if (rc == -ESRCH)
            continue;
        if (rc < 0) {
            snprintf(err, errlen, "moving pid %s into %s: %s", pid, c->dir, strerror(-rc));
            return -1;
        }
    }
    /* The kernel keeps what sched_setaffinity last asked for and intersects
     * it with the cpuset, so a task narrowed earlier would stay narrow. */
    return cpuset_set_affinity(pids, npids, want, err, errlen);
}

/* Move every process out of our cgroup to the root, then remove it. */
static void cg_close(struct cpuset_ctl *c)
{
    char path[PATH_MAX + 64], dst[PATH_MAX + 64], buf[8192], e[64];
    if (!c->dir[0])
        return;
    cpu_set_t online;
    int have_online = cpuset_read_mask(SYSCPU "/online", &online, 0, buf, sizeof buf) == 0;
    snprintf(path, sizeof path, "%s/cgroup.procs", c->dir);
    snprintf(dst, sizeof dst, "%s/cgroup.procs", c->root);
    for (int round = 0; round < CG_ROUND; round++) {
        ssize_t r = cpuset_read_text(path, buf, sizeof buf);
        if (r <= 0)
            break;
        /* Only whole lines: a full buffer may end mid-number; the next round
         * rereads what is left. */
        for (char *p = buf, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
            *nl = 0;
            if (!*p)
                continue;
            cpuset_write_text(dst, p);
            /* Leaving the cgroup keeps the mask apply() asked for, in
             * processes forked since too: widen it again. */
            pid_t pid = (pid_t)atoi(p);
            if (have_online)
                cpuset_set_affinity(&pid, 1, &online, e, sizeof e);
        }
    }
    for (int i = 0; i < 100; i++) {
        if (rmdir(c->dir) == 0 || errno == ENOENT)
            break;
        if (errno != EBUSY)
            break;
        cpuset_sleep_ms(10);
    }
    c->dir[0] = 0;
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
    int rc = 0;
    if (m == CPU_CPUSET)
        rc = cg_open(c, err, errlen);
    else if (m == CPU_HOTPLUG)
        rc = hotplug_open(&c->hp, err, errlen);
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
        return hotplug_apply(&c->hp, pids, npids, &want, err, errlen);
    if (cpuset_read_mask(SYSCPU "/online", &online, 0, err, errlen) < 0)
        return -1;
    for (int i = 0; i < MAXCPU; i++)
        if (CPU_ISSET(i, &want) && !CPU_ISSET(i, &online)) {
            char o[1024];
            cpuset_mask_format(&online, o, sizeof o);
            snprintf(err, errlen, "CPU %d is not online (online: %s)", i, o);
            return -1;
        }
    if (c->m == CPU_CPUSET)
        return cg_apply(c, pids, npids, &want, err, errlen);
    return cpuset_set_affinity(pids, npids, &want, err, errlen);
}

int cpuset_verify(struct cpuset_ctl *c, const pid_t *pids, int npids, const int *cpus, int ncpus,
                  char *err, size_t errlen)
{
    cpu_set_t want, online;
    mask_from_ids(cpus, ncpus, &want);
    struct chk k = {&want, NULL, 0, err, errlen};
    if (c && c->m == CPU_HOTPLUG) {
        if (cpuset_read_mask(SYSCPU "/online", &online, 0, err, errlen) < 0)
            return -1;
        if (!CPU_EQUAL(&online, &want)) {
            char o[1024], w[1024];
            cpuset_mask_format(&online, o, sizeof o);
            cpuset_mask_format(&want, w, sizeof w);
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
        if (c->m == CPU_HOTPLUG)
            hotplug_close(&c->hp);
        atomic_store(&c->used, 0);
    }
    cpu_set_t online;
    char err[16];
    if (npids > 0 && cpuset_read_mask(SYSCPU "/online", &online, 0, err, sizeof err) == 0)
        cpuset_set_affinity(pids, npids, &online, err, sizeof err);
}
