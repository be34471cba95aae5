/*
 * procfs.h - reading the kernel's small text files (/proc, /sys, cgroup
 * files): one whole-file read, one single-write, the tasks (threads) of a
 * process and /proc/stat's CPU times. Every call is open/read/write/getdents
 * only, so each is safe on a signal path and in a freshly forked child.
 */
#ifndef DBSCALE_PROCFS_H
#define DBSCALE_PROCFS_H

#include <stddef.h>
#include <sys/types.h>

/* Whole (small) file into buf, terminated. Bytes, or -errno. */
ssize_t procfs_read(const char *path, char *buf, size_t len);
/* One write of s to path (sysfs and cgroup files take one value per write). 0 or -errno. */
int procfs_write(const char *path, const char *s);

/* Call fn for every task (thread) id of pid, from /proc/PID/task. Returns 0
 * when pid is gone (it has no tasks), the first nonzero fn result, or -errno
 * when the directory cannot be read. */
typedef int (*procfs_task_fn)(pid_t pid, pid_t tid, void *arg);
int procfs_each_task(pid_t pid, procfs_task_fn fn, void *arg);

/* The live children of pid (processes whose parent is pid, from each
 * /proc/N/stat; zombies left out), at most max into out. Count. */
int procfs_children(pid_t pid, pid_t *out, int max);

/* The socket inodes pid holds open (its /proc/PID/fd links "socket:[N]"),
 * at most max into out. Count (0 when pid is gone). */
int procfs_socket_inodes(pid_t pid, unsigned long *out, int max);

/* /proc/stat's aggregate "cpu" line: idle (idle + iowait) and total
 * jiffies (guest time is already inside user). 0, or -1. */
int procfs_cpu_jiffies(unsigned long long *idle, unsigned long long *total);

#endif
