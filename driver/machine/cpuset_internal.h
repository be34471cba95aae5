/*
 * cpuset_internal.h - what the machine room's files lend each other: task
 * walks and affinity (affinity.c), the cpuset cgroup method (cgroup.c), the
 * hotplug method (hotplug.c). Internal: the public face is cpuset.h. Sets are
 * the one CPU-set type (cpulist.h); small files go through procfs.h. Every
 * call here is safe on the signal path (open/read/write only, no malloc)
 * except cpuset_find_root and cg_open.
 */
#ifndef DBSCALE_CPUSET_INTERNAL_H
#define DBSCALE_CPUSET_INTERNAL_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/cpulist.h"

/* The cpuset hierarchy's mount point (v1 preferred, else v2). 0, or -1. */
int cpuset_find_root(char *root, size_t len, int *v2);
/* Every task (thread) of pids to set, until a walk finds no new ones. */
int cpuset_set_affinity(const pid_t *pids, int npids, const struct cpulist *set, char *err,
                        size_t errlen);
/* Each task of pids can run on exactly want (or, with online, on want once
 * intersected with online). 0, or -1 naming the first mismatch. scratch is a
 * set of the same size, used to read each task's list. */
int cpuset_check_tasks(const pid_t *pids, int npids, const struct cpulist *want,
                       const struct cpulist *online, struct cpulist *scratch, char *err,
                       size_t errlen);
void cpuset_sleep_ms(long ms);

/* The cgroup method's state inside a control. */
struct cgroup_ctl {
    int v2;
    char root[PATH_MAX]; /* the cpuset hierarchy's root, where tasks go back */
    char dir[PATH_MAX];  /* our cgroup; "" when none */
};
int cgroup_open(struct cgroup_ctl *g, char *err, size_t errlen);
int cgroup_apply(struct cgroup_ctl *g, const pid_t *pids, int npids, const struct cpulist *want,
                 char *err, size_t errlen);
/* Every task back to the root, widened to online (a preallocated set), then rmdir. */
void cgroup_close(struct cgroup_ctl *g, struct cpulist *online);

#endif
