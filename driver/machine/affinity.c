/*
 * affinity.c - the tasks of a process, held to a CPU set and read back.
 *
 * A task is a thread (/proc/PID/task/TID): every method acts on every task
 * of every process it is given, and every check reads Cpus_allowed_list of
 * each task back from /proc. A thread born while we walk inherits its
 * creator's old mask, so the walk repeats until it finds no new task.
 *
 * Open/read/write/getdents only and no malloc: the sweep's clean-up after a
 * signal runs through here. It never prints.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "machine/cpuset_internal.h"
#include "core/procfs.h"

void cpuset_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

struct aff {
    const struct cpulist *set;
    int n;
    char *err;
    size_t errlen;
};

static int aff_task(pid_t pid, pid_t tid, void *arg)
{
    struct aff *a = arg;
    a->n++;
    if (sched_setaffinity(tid, a->set->size, a->set->set) == 0 || errno == ESRCH)
        return 0;
    int e = errno;
    char want[256];
    cpulist_format(a->set, want, sizeof want);
    snprintf(a->err, a->errlen, "pid %d tid %d: sched_setaffinity(%s): %s", (int)pid, (int)tid,
             want, strerror(e));
    return 1;
}

static int walk_error(pid_t pid, int rc, char *err, size_t errlen)
{
    if (rc < 0) /* -errno from the walk itself; 1 from a task, err already set */
        snprintf(err, errlen, "/proc/%d/task: %s", (int)pid, strerror(-rc));
    return -1;
}

int cpuset_set_affinity(const pid_t *pids, int npids, const struct cpulist *set, char *err,
                        size_t errlen)
{
    int prev = -1;
    for (int pass = 0; pass < 5; pass++) {
        struct aff a = {set, 0, err, errlen};
        for (int i = 0; i < npids; i++) {
            int rc = procfs_each_task(pids[i], aff_task, &a);
            if (rc)
                return walk_error(pids[i], rc, err, errlen);
        }
        if (a.n == prev)
            break;
        prev = a.n;
    }
    return 0;
}

struct chk {
    const struct cpulist *want;
    const struct cpulist *online; /* hotplug: compare allowed & online */
    struct cpulist *have;
    int n;
    char *err;
    size_t errlen;
};

static int chk_task(pid_t pid, pid_t tid, void *arg)
{
    struct chk *c = arg;
    char path[64], buf[8192], line[4096], why[160];
    snprintf(path, sizeof path, "/proc/%d/task/%d/status", (int)pid, (int)tid);
    ssize_t r = procfs_read(path, buf, sizeof buf);
    if (r == -ENOENT || r == -ESRCH)
        return 0; /* the task ended */
    if (r < 0) {
        snprintf(c->err, c->errlen, "%s: %s", path, strerror((int)-r));
        return 1;
    }
    const char *p = strstr(buf, "\nCpus_allowed_list:");
    if (!p) {
        snprintf(c->err, c->errlen, "%s: no Cpus_allowed_list", path);
        return 1;
    }
    p += strlen("\nCpus_allowed_list:");
    size_t n = strcspn(p, "\n");
    if (n >= sizeof line)
        n = sizeof line - 1;
    memcpy(line, p, n);
    line[n] = 0;
    if (cpulist_parse(c->have, line, 0, why, sizeof why) < 0) {
        snprintf(c->err, c->errlen, "%s: Cpus_allowed_list: %s", path, why);
        return 1;
    }
    c->n++;
    char h[256], w[256];
    cpulist_format(c->have, h, sizeof h);
    if (c->online)
        cpulist_and(c->have, c->have, c->online);
    if (cpulist_equal(c->have, c->want))
        return 0;
    cpulist_format(c->want, w, sizeof w);
    if (c->online) {
        char e[256];
        cpulist_format(c->have, e, sizeof e);
        snprintf(c->err, c->errlen,
                 "pid %d tid %d: Cpus_allowed_list %s, so it can run on online CPUs %s, wanted %s",
                 (int)pid, (int)tid, h, e, w);
    } else {
        snprintf(c->err, c->errlen, "pid %d tid %d: Cpus_allowed_list %s, wanted %s", (int)pid,
                 (int)tid, h, w);
    }
    return 1;
}

int cpuset_check_tasks(const pid_t *pids, int npids, const struct cpulist *want,
                       const struct cpulist *online, struct cpulist *scratch, char *err,
                       size_t errlen)
{
    struct chk k = {want, online, scratch, 0, err, errlen};
    for (int i = 0; i < npids; i++) {
        int rc = procfs_each_task(pids[i], chk_task, &k);
        if (rc)
            return walk_error(pids[i], rc, err, errlen);
    }
    if (npids > 0 && k.n == 0) {
        snprintf(err, errlen, "none of the %d processes (pid %d, ...) exists any more", npids,
                 (int)pids[0]);
        return -1;
    }
    return 0;
}
