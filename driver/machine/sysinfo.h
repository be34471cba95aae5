/*
 * sysinfo.h - facts about the machine and the server under test, read from
 * /proc and /sys: what the kernel is (and whether it runs UP), how much CPU
 * the server's processes burned, how idle the machine was.
 */
#ifndef DBSCALE_SYSINFO_H
#define DBSCALE_SYSINFO_H

#include <stddef.h>
#include <sys/types.h>

struct sysinfo_facts {
    char hostname[128];
    char kernel[256];    /* uname -srv */
    char machine[65];    /* uname -m */
    char cmdline[1024];  /* /proc/cmdline */
    char cpu_model[128]; /* /proc/cpuinfo "model name" */
    char online[64];     /* /sys/devices/system/cpu/online, e.g. "0-1" */
    char possible[64];
    int nonline;
    long long mem_kb;
    int up; /* booted uniprocessor: nosmp, maxcpus=0/1, nr_cpus=1, or one CPU possible */
};

void sysinfo_read(struct sysinfo_facts *f);

/* CPU seconds (user + system) used so far by these processes, every thread. */
double sysinfo_proc_cpu(const pid_t *pids, int n);

/* Aggregate /proc/stat jiffies: idle (idle + iowait) and total. */
struct sysinfo_cpu_times {
    unsigned long long idle, total;
};
void sysinfo_cpu_times(struct sysinfo_cpu_times *t);
/* Percent idle between two readings. */
double sysinfo_idle_pct(const struct sysinfo_cpu_times *a, const struct sysinfo_cpu_times *b);

/* The process listening on TCP port (IPv4 or IPv6), 0 if none is found. */
pid_t sysinfo_pid_by_port(int port);
/* pid and every process whose parent is pid (a postmaster and its backends).
 * Count written. */
int sysinfo_family(pid_t pid, pid_t *out, int max);

#endif
