/*
 * studyfd.c - a kernels study's directory, handled by descriptor.
 *
 * The one idea: the host names nothing under OUT by path. OUT is opened
 * once; console/, .vm/ and each variant's directory are made and opened
 * relative to it with O_NOFOLLOW, files are written there through a
 * temporary name and renameat, and qemu is handed the descriptors. So no
 * link anyone (a guest included) leaves in the tree can send a host write
 * elsewhere. A variant's directory is the one place a guest writes; it is
 * shared mapped (guest.h), and after each boot this file walks it and
 * removes what a guest must never leave on the host, should the mapping
 * ever have let something through.
 *
 * Never follow a link here, never chmod what is someone else's: refuse.
 */
#include "vm/studyfd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "core/safefile.h"

static int check_ours(int fd, const char *name, char *err, size_t errlen)
{
    struct stat st;
    if (fstat(fd, &st) < 0) {
        snprintf(err, errlen, "%s: %s", name, strerror(errno));
        return -1;
    }
    if (st.st_uid != geteuid()) {
        snprintf(err, errlen,
                 "%s is owned by uid %d, not you: a study directory must be your own (another "
                 "user could swap what is shared into a guest)",
                 name, (int)st.st_uid);
        return -1;
    }
    if (st.st_mode & 022) {
        snprintf(err, errlen,
                 "%s is writable by others (mode %04o): a study directory must be writable by "
                 "you alone",
                 name, (unsigned)(st.st_mode & 07777));
        return -1;
    }
    return 0;
}

/* Why dirfd/name would not open as a directory without following a link. */
static const char *why_not(int dirfd, const char *name, int e)
{
    struct stat st;
    if ((e == ELOOP || e == ENOTDIR) && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
        return S_ISLNK(st.st_mode) ? "a symbolic link (not followed)" : "not a directory";
    return strerror(e);
}

int studyfd_open(const char *path, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", path, why_not(AT_FDCWD, path, errno));
        return -1;
    }
    if (check_ours(fd, path, err, errlen) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int studyfd_sub(int dirfd, const char *name, char *err, size_t errlen)
{
    if (mkdirat(dirfd, name, 0755) < 0 && errno != EEXIST) {
        snprintf(err, errlen, "cannot create %s: %s", name, strerror(errno));
        return -1;
    }
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "%s: %s", name, why_not(dirfd, name, errno));
        return -1;
    }
    if (check_ours(fd, name, err, errlen) < 0) {
        close(fd);
        return -1;
    }
    return fd;
}

int studyfd_write(int dirfd, const char *name, const void *data, size_t len)
{
    return file_write_at(dirfd, name, data, len);
}

const char *studyfd_share_model(int fd)
{
    static const char probe[] = "user.dbscale.probe";
    if (fsetxattr(fd, probe, "1", 1, 0) < 0)
        return "mapped-file";
    fremovexattr(fd, probe);
    return "mapped-xattr";
}

struct clean {
    int removed;
    char *why;
    size_t whylen;
};

static void removed(struct clean *c, const char *rel, const char *what)
{
    if (c->removed++ == 0)
        snprintf(c->why, c->whylen, "%s (%s)", what, rel);
}

static int clean_dir(int fd, const char *rel, int depth, struct clean *c)
{
    if (depth > 64) {
        snprintf(c->why, c->whylen, "%s: nested too deep", rel);
        return -1;
    }
    int dfd = dup(fd);
    DIR *d = dfd >= 0 ? fdopendir(dfd) : NULL;
    if (!d) {
        if (dfd >= 0)
            close(dfd);
        snprintf(c->why, c->whylen, "%s: %s", rel, strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (rc == 0 && (e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        char sub[4096];
        snprintf(sub, sizeof sub, "%s%s%s", rel, rel[0] ? "/" : "", e->d_name);
        struct stat st;
        if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
            continue; /* gone */
        if (S_ISDIR(st.st_mode)) {
            int cfd = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (cfd < 0)
                continue;
            rc = clean_dir(cfd, sub, depth + 1, c);
            close(cfd);
            continue;
        }
        const char *bad = S_ISLNK(st.st_mode)                          ? "a symbolic link"
                          : !S_ISREG(st.st_mode)                       ? "a device, FIFO or socket"
                          : st.st_mode & (S_ISUID | S_ISGID)           ? "a setuid or setgid file"
                          : st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH) ? "an executable file"
                                                                       : NULL;
        if (bad) {
            if (unlinkat(fd, e->d_name, 0) == 0)
                removed(c, sub, bad);
            continue;
        }
        int ffd = openat(fd, e->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (ffd >= 0 && fgetxattr(ffd, "security.capability", NULL, 0) >= 0 &&
            fremovexattr(ffd, "security.capability") == 0)
            removed(c, sub, "a file capability");
        if (ffd >= 0)
            close(ffd);
    }
    closedir(d);
    return rc;
}

int studyfd_clean(int fd, char *why, size_t whylen)
{
    struct clean c = {0, why, whylen};
    why[0] = '\0';
    if (clean_dir(fd, "", 0, &c) < 0)
        return -1;
    return c.removed;
}
