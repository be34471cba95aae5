/*
 * cpuset_internal.h - what cpuset.c lends hotplug.c: reading and writing
 * sysfs/proc files and CPU lists, the cpuset cgroup root, affinity. Internal:
 * the public face is cpuset.h. Every call here is safe on the signal path
 * (open/read/write only) except cpuset_find_root.
 */
#ifndef DBSCALE_CPUSET_INTERNAL_H
#define DBSCALE_CPUSET_INTERNAL_H

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

#define MAXCPU CPU_SETSIZE
#define SYSCPU "/sys/devices/system/cpu"

/* Whole (small) file into buf, terminated. Bytes, or -errno. */
ssize_t cpuset_read_text(const char *path, char *buf, size_t len);
/* One write of s to path (sysfs and cgroup files take one value per write). 0 or -errno. */
int cpuset_write_text(const char *path, const char *s);
/* "0-3,6" (surrounding whitespace allowed) into set. Count, or -1. An empty
 * list is malformed unless allow_empty (sysfs writes an empty "offline"). */
int cpuset_mask_parse(const char *s, cpu_set_t *set, int allow_empty);
void cpuset_mask_format(const cpu_set_t *set, char *buf, size_t len);
/* The CPU list in a file into set; -1 with a message. */
int cpuset_read_mask(const char *path, cpu_set_t *set, int allow_empty, char *err, size_t errlen);
/* The cpuset hierarchy's mount point (v1 preferred, else v2). 0, or -1. */
int cpuset_find_root(char *root, size_t len, int *v2);
/* Every task (thread) of pids to set, until a walk finds no new ones. */
int cpuset_set_affinity(const pid_t *pids, int npids, const cpu_set_t *set, char *err,
                        size_t errlen);
void cpuset_sleep_ms(long ms);

#endif
