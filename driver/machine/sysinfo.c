/*
 * sysinfo.c - reading /proc and /sys. Every reader tolerates a process that
 * exits under it (backends come and go): a vanished file counts as nothing.
 */
#include "machine/sysinfo.h"

#include "core/cpulist.h"
#include "core/procfs.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* The first line of a small file, trailing blanks cut; "" when unreadable. */
static void read_line(const char *path, char *buf, size_t len)
{
    if (procfs_read(path, buf, len) < 0)
        buf[0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
    size_t l = strlen(buf);
    while (l && buf[l - 1] == ' ')
        buf[--l] = '\0';
}

static int has_word(const char *cmdline, const char *w)
{
    size_t l = strlen(w);
    for (const char *p = cmdline; (p = strstr(p, w)) != NULL; p += l)
        if ((p == cmdline || p[-1] == ' ') && (p[l] == ' ' || p[l] == '\0' || w[l - 1] == '='))
            return 1;
    return 0;
}

void sysinfo_read(struct sysinfo_facts *f)
{
    memset(f, 0, sizeof *f);
    gethostname(f->hostname, sizeof f->hostname - 1);
    struct utsname u;
    if (uname(&u) == 0) {
        snprintf(f->kernel, sizeof f->kernel, "%.60s %.64s %.120s", u.sysname, u.release,
                 u.version);
        snprintf(f->machine, sizeof f->machine, "%s", u.machine);
    }
    read_line("/proc/cmdline", f->cmdline, sizeof f->cmdline);
    char path[1200];
    cpulist_sysfs_path(path, sizeof path, "online");
    read_line(path, f->online, sizeof f->online);
    cpulist_sysfs_path(path, sizeof path, "possible");
    read_line(path, f->possible, sizeof f->possible);
    struct cpulist on;
    char why[256];
    f->nonline = 0;
    if (cpulist_init(&on) == 0 && cpulist_online(&on, why, sizeof why) > 0)
        f->nonline = cpulist_count(&on);
    cpulist_free(&on);
    FILE *c = fopen("/proc/cpuinfo", "r");
    char line[512];
    if (c) {
        while (fgets(line, sizeof line, c))
            if (!strncmp(line, "model name", 10)) {
                char *v = strchr(line, ':');
                if (v) {
                    v++;
                    while (*v == ' ')
                        v++;
                    snprintf(f->cpu_model, sizeof f->cpu_model, "%s", v);
                    f->cpu_model[strcspn(f->cpu_model, "\n")] = '\0';
                }
                break;
            }
        fclose(c);
    }
    FILE *m = fopen("/proc/meminfo", "r");
    if (m) {
        while (fgets(line, sizeof line, m))
            if (sscanf(line, "MemTotal: %lld kB", &f->mem_kb) == 1)
                break;
        fclose(m);
    }
    const char *cl = f->cmdline;
    const char *mc = strstr(cl, "maxcpus=");
    const char *nc = strstr(cl, "nr_cpus=");
    f->up = has_word(cl, "nosmp") || (mc && atoi(mc + 8) <= 1) || (nc && atoi(nc + 8) == 1) ||
            cpulist_possible() == 1;
}

/* utime + stime of /proc/PID/stat, which sums all the process's threads. */
static double one_proc_cpu(pid_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    read_line(path, buf, sizeof buf);
    char *p = strrchr(buf, ')'); /* comm may hold spaces */
    if (!p)
        return 0;
    unsigned long long ut = 0, st = 0;
    /* after ")": state ppid pgrp session tty tpgid flags minflt cminflt
     * majflt cmajflt utime stime */
    if (sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
        return 0;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

double sysinfo_proc_cpu(const pid_t *pids, int n)
{
    double s = 0;
    for (int i = 0; i < n; i++)
        s += one_proc_cpu(pids[i]);
    return s;
}

void sysinfo_cpu_times(struct sysinfo_cpu_times *t)
{
    unsigned long long idle, total;
    procfs_cpu_jiffies(&idle, &total); /* zeros when unreadable */
    t->idle = idle;
    t->total = total;
}

double sysinfo_idle_pct(const struct sysinfo_cpu_times *a, const struct sysinfo_cpu_times *b)
{
    unsigned long long dt = b->total - a->total;
    return dt ? 100.0 * (double)(b->idle - a->idle) / (double)dt : 0;
}

/* inode of the socket listening on port, from /proc/net/tcp{,6}. */
static unsigned long listen_inode(int port)
{
    const char *files[] = {"/proc/net/tcp", "/proc/net/tcp6"};
    for (int k = 0; k < 2; k++) {
        FILE *f = fopen(files[k], "r");
        if (!f)
            continue;
        char line[512];
        while (fgets(line, sizeof line, f)) {
            char local[128];
            unsigned st;
            unsigned long inode;
            if (sscanf(line, " %*d: %127s %*s %x %*s %*s %*s %*d %*d %lu", local, &st, &inode) != 3)
                continue;
            char *colon = strrchr(local, ':');
            if (colon && st == 0x0A && (int)strtol(colon + 1, NULL, 16) == port) {
                fclose(f);
                return inode;
            }
        }
        fclose(f);
    }
    return 0;
}

pid_t sysinfo_pid_by_port(int port)
{
    unsigned long inode = listen_inode(port);
    if (!inode)
        return 0;
    char want[64];
    snprintf(want, sizeof want, "socket:[%lu]", inode);
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    struct dirent *e;
    pid_t found = 0;
    while (!found && (e = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char fdpath[300];
        snprintf(fdpath, sizeof fdpath, "/proc/%s/fd", e->d_name);
        DIR *fd = opendir(fdpath);
        if (!fd)
            continue;
        struct dirent *x;
        while ((x = readdir(fd)) != NULL) {
            char link[600], target[128];
            snprintf(link, sizeof link, "%s/%s", fdpath, x->d_name);
            ssize_t l = readlink(link, target, sizeof target - 1);
            if (l > 0) {
                target[l] = '\0';
                if (!strcmp(target, want)) {
                    found = (pid_t)atoi(e->d_name);
                    break;
                }
            }
        }
        closedir(fd);
    }
    closedir(d);
    return found;
}

int sysinfo_family(pid_t pid, pid_t *out, int max)
{
    if (max < 1)
        return 0;
    out[0] = pid;
    return 1 + procfs_children(pid, out + 1, max - 1);
}
