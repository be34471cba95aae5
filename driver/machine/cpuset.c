/*
 * cpuset.c - holding a database server to k CPUs, and proving that it held:
 * the dispatch over the three methods.
 *
 * The room exists so that "the server ran on k CPUs" is a fact read back from
 * the kernel, not a wish. The idea that makes it work: every method acts on
 * every task of every process the caller names, and every check goes back to
 * /proc (Cpus_allowed_list) and sysfs (the online list) after the change.
 *
 *   affinity  sched_setaffinity on each task (affinity.c)
 *   cpuset    a cgroup holding the server's processes (cgroup.c)
 *   hotplug   CPUs taken offline, a guardian puts them back (hotplug.c)
 *
 * CPU sets are the one type of core/cpulist.h, sized from the machine. A
 * control preallocates the sets it needs at open, so apply, verify and close
 * do no malloc; controls live in a small static pool, so closing twice is
 * harmless. It must never leave a CPU offline or a task narrowed after
 * close. It never prints and never asserts: failures come back as messages.
 */
#include "machine/cpuset.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "machine/cpuset_internal.h"
#include "machine/hotplug.h"

#define NCTL 8

struct cpuset_ctl {
    atomic_int used; /* slot taken; 0 again once closed */
    enum cpu_method m;
    struct cgroup_ctl cg;
    struct hotplug hp;
    struct cpulist online, scratch; /* allocated once, kept for the next open */
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

static int alloc_sets(struct cpuset_ctl *c)
{
    if (!c->online.set && cpulist_init(&c->online) < 0)
        return -1;
    if (!c->scratch.set && cpulist_init(&c->scratch) < 0)
        return -1;
    return 0;
}

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
    memset(&c->cg, 0, sizeof c->cg);
    int rc = 0;
    if (alloc_sets(c) < 0 || hotplug_init(&c->hp) < 0) {
        snprintf(err, errlen, "out of memory for CPU sets");
        rc = -1;
    } else if (m == CPU_CPUSET)
        rc = cgroup_open(&c->cg, err, errlen);
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

int cpuset_apply(struct cpuset_ctl *c, const pid_t *pids, int npids, const struct cpulist *want,
                 char *err, size_t errlen)
{
    if (!c || !atomic_load(&c->used)) {
        snprintf(err, errlen, "CPU control is not open");
        return -1;
    }
    if (cpulist_count(want) <= 0) {
        snprintf(err, errlen, "empty CPU list");
        return -1;
    }
    if (c->m == CPU_HOTPLUG)
        return hotplug_apply(&c->hp, pids, npids, want, err, errlen);
    if (cpulist_online(&c->online, err, errlen) < 0)
        return -1;
    for (int i = cpulist_next(want, 0); i >= 0; i = cpulist_next(want, i + 1))
        if (!cpulist_has(&c->online, i)) {
            char o[1024];
            cpulist_format(&c->online, o, sizeof o);
            snprintf(err, errlen, "CPU %d is not online (online: %s)", i, o);
            return -1;
        }
    if (c->m == CPU_CPUSET)
        return cgroup_apply(&c->cg, pids, npids, want, err, errlen);
    return cpuset_set_affinity(pids, npids, want, err, errlen);
}

int cpuset_verify(struct cpuset_ctl *c, const pid_t *pids, int npids, const struct cpulist *want,
                  char *err, size_t errlen)
{
    if (!c || !atomic_load(&c->used)) {
        /* no control: check affinity alone, with a set of our own */
        struct cpulist scratch;
        if (cpulist_init(&scratch) < 0) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        int rc = cpuset_check_tasks(pids, npids, want, NULL, &scratch, err, errlen);
        cpulist_free(&scratch);
        return rc;
    }
    const struct cpulist *online = NULL;
    if (c->m == CPU_HOTPLUG) {
        if (cpulist_online(&c->online, err, errlen) < 0)
            return -1;
        if (!cpulist_equal(&c->online, want)) {
            char o[1024], w[1024];
            cpulist_format(&c->online, o, sizeof o);
            cpulist_format(want, w, sizeof w);
            snprintf(err, errlen, "online CPUs are %s, wanted %s", o, w);
            return -1;
        }
        online = &c->online;
    }
    return cpuset_check_tasks(pids, npids, want, online, &c->scratch, err, errlen);
}

void cpuset_close(struct cpuset_ctl *c, const pid_t *pids, int npids)
{
    struct cpulist own = {0}, *online = &own;
    char err[16];
    if (c && atomic_load(&c->used)) {
        online = &c->online;
        if (c->m == CPU_CPUSET)
            cgroup_close(&c->cg, online);
        if (c->m == CPU_HOTPLUG)
            hotplug_close(&c->hp);
    } else if (npids > 0 && cpulist_init(&own) < 0) {
        return; /* no control: only reached from clean-up code, never a handler */
    }
    if (npids > 0 && online->set && cpulist_online(online, err, sizeof err) > 0)
        cpuset_set_affinity(pids, npids, online, err, sizeof err);
    if (c)
        atomic_store(&c->used, 0);
    cpulist_free(&own);
}
