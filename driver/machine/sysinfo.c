/*
 * sysinfo.c - reading /proc and /sys. Every reader tolerates a process that
 * exits under it (backends come and go): a vanished file counts as nothing.
 */
#include "sysinfo.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static void read_line(const char *path, char *buf, size_t len)
{
    buf[0] = '\0';
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (fgets(buf, (int)len, f)) {
        size_t l = strlen(buf);
        while (l && (buf[l - 1] == '\n' || buf[l - 1] == ' '))
            buf[--l] = '\0';
    }
    fclose(f);
}

static int count_list(const char *list)
{
    int n = 0;
    for (const char *p = list; *p;) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p)
            break;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        n += (int)(b - a + 1);
        p = *end == ',' ? end + 1 : end;
        if (!*end)
            break;
    }
    return n;
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
    read_line("/sys/devices/system/cpu/online", f->online, sizeof f->online);
    read_line("/sys/devices/system/cpu/possible", f->possible, sizeof f->possible);
    f->nonline = count_list(f->online);
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
            count_list(f->possible) == 1;
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
    char buf[512];
    read_line("/proc/stat", buf, sizeof buf);
    unsigned long long v[10] = {0};
    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
           &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
    t->idle = v[3] + v[4];
    t->total = 0;
    for (int i = 0; i < 8; i++) /* guest time is already inside user */
        t->total += v[i];
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
    int n = 0;
    if (max < 1)
        return 0;
    out[n++] = pid;
    DIR *d = opendir("/proc");
    if (!d)
        return n;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < max) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        read_line(path, buf, sizeof buf);
        char *p = strrchr(buf, ')');
        int ppid = 0;
        if (p && sscanf(p + 2, "%*c %d", &ppid) == 1 && ppid == pid)
            out[n++] = (pid_t)atoi(e->d_name);
    }
    closedir(d);
    return n;
}
