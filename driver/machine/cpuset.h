/*
 * cpuset.h - holding a database server to k CPUs, three ways, and proving it.
 *
 *   affinity  sched_setaffinity on every task (process and thread) of the server
 *   cpuset    a cpuset cgroup (v1 or v2, whichever is mounted) holding the server
 *   hotplug   CPUs taken offline in /sys/devices/system/cpu/cpuN/online, as the
 *             kernel then really has fewer CPUs; a guardian process that
 *             outlives us (even SIGKILL) puts them back
 *
 * Whatever the method, cpuset_verify() reads back /proc before a level counts.
 */
#ifndef DBSCALE_CPUSET_H
#define DBSCALE_CPUSET_H

#include <stddef.h>
#include <sys/types.h>

#include "core/cpulist.h"

enum cpu_method { CPU_AFFINITY, CPU_CPUSET, CPU_HOTPLUG };

/* "affinity" | "cpuset" | "hotplug"; -1 if unknown. */
int cpuset_method_parse(const char *s);
const char *cpuset_method_name(enum cpu_method m);

/* CPU lists, the online set and their parsing: core/cpulist.h. */

struct cpuset_ctl;

/* Prepare a method: cpuset creates its cgroup, hotplug starts the guardian.
 * NULL with a message when the method cannot work here (e.g. no cgroup
 * cpuset controller, CPU hotplug not allowed, not root). */
struct cpuset_ctl *cpuset_open(enum cpu_method m, char *err, size_t errlen);

/* Hold every task of the given processes (all threads under /proc/PID/task)
 * to cpus. hotplug: offline every CPU not in cpus (CPU 0 is never offlined,
 * so cpus must contain it) and online those in it. Re-applying is cheap and
 * catches tasks that appeared since (new backends, new threads). */
int cpuset_apply(struct cpuset_ctl *c, const pid_t *pids, int npids, const struct cpulist *cpus,
                 char *err, size_t errlen);

/* Read back Cpus_allowed_list of every task (and, for hotplug, the online
 * set): 0 when each task can run on exactly cpus (affinity/cpuset), or on a
 * subset of online CPUs equal to cpus (hotplug). -1 with the first mismatch
 * named (pid/tid, what it has, what was wanted). */
int cpuset_verify(struct cpuset_ctl *c, const pid_t *pids, int npids, const struct cpulist *cpus,
                  char *err, size_t errlen);

/* Undo everything: all CPUs back online, the cgroup removed (its tasks moved
 * back to the parent), affinity of the given tasks reset to every online CPU.
 * Idempotent; no malloc when c is an open control (the sweep's clean-up after
 * a signal). */
void cpuset_close(struct cpuset_ctl *c, const pid_t *pids, int npids);

#endif
