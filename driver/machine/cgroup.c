/*
 * cgroup.c - the cpuset method: a cgroup dbscale-PID under the cpuset root
 * (v1 or v2, whichever is mounted) holding the server.
 *
 * The server's processes are moved in whole (cgroup.procs), so children it
 * forks later are held too. The kernel keeps what sched_setaffinity last
 * asked for and intersects it with the cpuset, so apply also sets affinity,
 * and close widens every task it moves back out. It must never leave the
 * cgroup behind after close, and never prints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "machine/cpuset_internal.h"
#include "core/procfs.h"

#define CG_ROUND 100 /* rounds of moving tasks out of our cgroup on close */

/* The cpuset hierarchy: a v1 "cgroup" mount with the cpuset option, else a
 * cgroup2 mount whose cgroup.controllers lists cpuset. 0, or -1. */
int cpuset_find_root(char *root, size_t len, int *v2)
{
    FILE *f = fopen("/proc/self/mountinfo", "re");
    if (!f)
        return -1;
    char line[4096], v2root[PATH_MAX] = "";
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        /* id parent maj:min root mountpoint opts... - fstype source superopts */
        char *sep = strstr(line, " - ");
        char mnt[PATH_MAX], fstype[64], source[256], super[1024] = "";
        if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
            sscanf(sep + 3, "%63s %255s %1023s", fstype, source, super) < 2)
            continue;
        if (!strcmp(fstype, "cgroup")) {
            for (char *sv, *tok = strtok_r(super, ",", &sv); tok; tok = strtok_r(NULL, ",", &sv))
                if (!strcmp(tok, "cpuset")) {
                    snprintf(root, len, "%s", mnt);
                    *v2 = 0;
                    found = 1;
                }
        } else if (!strcmp(fstype, "cgroup2") && !v2root[0]) {
            char path[PATH_MAX + 32], ctl[1024];
            snprintf(path, sizeof path, "%s/cgroup.controllers", mnt);
            if (procfs_read(path, ctl, sizeof ctl) > 0)
                for (char *sv, *tok = strtok_r(ctl, " \n", &sv); tok;
                     tok = strtok_r(NULL, " \n", &sv))
                    if (!strcmp(tok, "cpuset"))
                        snprintf(v2root, sizeof v2root, "%s", mnt);
        }
    }
    fclose(f);
    if (!found && v2root[0]) {
        snprintf(root, len, "%s", v2root);
        *v2 = 1;
        found = 1;
    }
    return found ? 0 : -1;
}

static int cg_write(const char *dir, const char *file, const char *val, char *err, size_t errlen)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    int rc = procfs_write(path, val);
    if (rc < 0)
        snprintf(err, errlen, "writing '%s' to %s: %s", val, path, strerror(-rc));
    return rc;
}

int cgroup_open(struct cgroup_ctl *c, char *err, size_t errlen)
{
    char path[PATH_MAX + 64], buf[4096];
    if (cpuset_find_root(c->root, sizeof c->root, &c->v2) < 0) {
        snprintf(err, errlen,
                 "no cpuset cgroup controller here (neither a cgroup v1 cpuset mount nor "
                 "cgroup v2 with cpuset in cgroup.controllers)");
        return -1;
    }
    if (c->v2) {
        snprintf(path, sizeof path, "%s/cgroup.subtree_control", c->root);
        if (procfs_read(path, buf, sizeof buf) < 0 || !strstr(buf, "cpuset"))
            if (cg_write(c->root, "cgroup.subtree_control", "+cpuset", err, errlen) < 0)
                return -1;
    }
    if (snprintf(c->dir, sizeof c->dir, "%s/dbscale-%d", c->root, (int)getpid()) >=
        (int)sizeof c->dir) {
        snprintf(err, errlen, "cgroup path too long under %s", c->root);
        c->dir[0] = 0;
        return -1;
    }
    /* EEXIST: left by an earlier process with our pid, which is gone; reuse it. */
    if (mkdir(c->dir, 0755) < 0 && errno != EEXIST) {
        int e = errno;
        snprintf(err, errlen, "mkdir %s: %s%s", c->dir, strerror(e),
                 e == EACCES || e == EPERM || e == EROFS ? " (the cpuset method needs root)" : "");
        c->dir[0] = 0;
        return -1;
    }
    if (!c->v2) {
        /* A new v1 cpuset starts with no CPUs and no memory nodes and takes
         * no tasks until both are set: start from the parent's. */
        const char *files[] = {"cpuset.mems", "cpuset.cpus"};
        for (int i = 0; i < 2; i++) {
            snprintf(path, sizeof path, "%s/%s", c->root, files[i]);
            ssize_t r = procfs_read(path, buf, sizeof buf);
            if (r < 0) {
                snprintf(err, errlen, "%s: %s", path, strerror((int)-r));
                return -1;
            }
            buf[strcspn(buf, "\n")] = 0;
            if (cg_write(c->dir, files[i], buf, err, errlen) < 0)
                return -1;
        }
    }
    return 0;
}

int cgroup_apply(struct cgroup_ctl *c, const pid_t *pids, int npids, const struct cpulist *want,
                 char *err, size_t errlen)
{
    char list[8192], pid[32];
    cpulist_format(want, list, sizeof list);
    if (cg_write(c->dir, "cpuset.cpus", list, err, errlen) < 0)
        return -1;
    /* cgroup.procs (v1 too) moves a process with all its threads at once. */
    for (int i = 0; i < npids; i++) {
        snprintf(pid, sizeof pid, "%d", (int)pids[i]);
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/cgroup.procs", c->dir);
        int rc = procfs_write(path, pid);
        if (rc == -ESRCH)
            continue;
        if (rc < 0) {
            snprintf(err, errlen, "moving pid %s into %s: %s", pid, c->dir, strerror(-rc));
            return -1;
        }
    }
    /* The kernel keeps what sched_setaffinity last asked for and intersects
     * it with the cpuset, so a task narrowed earlier would stay narrow. */
    return cpuset_set_affinity(pids, npids, want, err, errlen);
}

/* Move every process out of our cgroup to the root, then remove it. */
void cgroup_close(struct cgroup_ctl *c, struct cpulist *online)
{
    char path[PATH_MAX + 64], dst[PATH_MAX + 64], buf[8192], e[64];
    if (!c->dir[0])
        return;
    int have_online = online->set && cpulist_online(online, buf, sizeof buf) > 0;
    snprintf(path, sizeof path, "%s/cgroup.procs", c->dir);
    snprintf(dst, sizeof dst, "%s/cgroup.procs", c->root);
    for (int round = 0; round < CG_ROUND; round++) {
        ssize_t r = procfs_read(path, buf, sizeof buf);
        if (r <= 0)
            break;
        /* Only whole lines: a full buffer may end mid-number; the next round
         * rereads what is left. */
        for (char *p = buf, *nl; (nl = strchr(p, '\n')); p = nl + 1) {
            *nl = 0;
            if (!*p)
                continue;
            procfs_write(dst, p);
            /* Leaving the cgroup keeps the mask apply() asked for, in
             * processes forked since too: widen it again. */
            pid_t pid = (pid_t)atoi(p);
            if (have_online)
                cpuset_set_affinity(&pid, 1, online, e, sizeof e);
        }
    }
    for (int i = 0; i < 100; i++) {
        if (rmdir(c->dir) == 0 || errno == ENOENT)
            break;
        if (errno != EBUSY)
            break;
        cpuset_sleep_ms(10);
    }
    c->dir[0] = 0;
}
