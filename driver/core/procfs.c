/*
 * procfs.c - the kernel's small text files, read and written one way.
 *
 * /proc and /sys files are generated on read and take one value per write;
 * the room exists so that every reader does that the same way (retry on
 * EINTR, whole file, always terminated) instead of six slightly different
 * fgets/fread loops. The one idea: nothing here allocates or uses stdio, so
 * the sweep's signal path and the hotplug guardian can call the file and
 * task helpers (the children walk uses opendir). It never prints.
 */
#include "core/procfs.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

ssize_t procfs_read(const char *path, char *buf, size_t len)
{
    if (!len)
        return -EINVAL;
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
            buf[0] = 0;
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

int procfs_write(const char *path, const char *s)
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

int procfs_each_task(pid_t pid, procfs_task_fn fn, void *arg)
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return errno == ENOENT || errno == ESRCH ? 0 : -errno;
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

int procfs_children(pid_t pid, pid_t *out, int max)
{
    int n = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    for (struct dirent *e; n < max && (e = readdir(d)) != NULL;) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], buf[1024];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        if (procfs_read(path, buf, sizeof buf) <= 0)
            continue;
        char *p = strrchr(buf, ')'); /* comm may hold spaces and parentheses */
        int ppid = 0;
        /* a zombie has exited: no task left to hold or measure */
        if (p && sscanf(p + 2, "%*c %d", &ppid) == 1 && ppid == pid && p[2] != 'Z')
            out[n++] = (pid_t)atoi(e->d_name);
    }
    closedir(d);
    return n;
}

int procfs_cpu_jiffies(unsigned long long *idle, unsigned long long *total)
{
    char buf[1024];
    unsigned long long v[10] = {0};
    *idle = *total = 0;
    if (procfs_read("/proc/stat", buf, sizeof buf) <= 0 ||
        sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
               &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]) < 4)
        return -1;
    *idle = v[3] + v[4];
    for (int i = 0; i < 8; i++) /* guest time is already inside user */
        *total += v[i];
    return 0;
}

int procfs_socket_inodes(pid_t pid, unsigned long *out, int max)
{
    char dir[64];
    snprintf(dir, sizeof dir, "/proc/%ld/fd", (long)pid);
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && n < max && (e = readdir(d))) {
        char link[320], to[64];
        snprintf(link, sizeof link, "%s/%s", dir, e->d_name);
        ssize_t l = readlink(link, to, sizeof to - 1);
        if (l <= 0)
            continue;
        to[l] = '\0';
        if (sscanf(to, "socket:[%lu]", &out[n]) == 1)
            n++;
    }
    if (d)
        closedir(d);
    return n;
}
