/*
 * safefile.c - see safefile.h; also util.h's sbuf_read_file, the whole-file
 * read every room uses, which is fopen_regular and a loop. The one idea:
 * look at what a path is from the open file itself (fstat of the
 * descriptor, O_NOFOLLOW), never by a stat before an open, so what is
 * checked is what is used. It sits on util.c (sbuf, mkdir_p), never under it.
 */
#include "core/safefile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"

int dir_open_nofollow(const char *path)
{
    char buf[4096];
    size_t l = strlen(path);
    if (l >= sizeof buf)
        return -ENAMETOOLONG;
    memcpy(buf, path, l + 1);
    while (l > 1 && buf[l - 1] == '/') /* "link/" is followed whatever O_NOFOLLOW says */
        buf[--l] = '\0';
    path = buf;
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0)
        return fd;
    int e = errno;
    struct stat st;
    /* O_NOFOLLOW|O_DIRECTORY on a link gives ENOTDIR on some kernels */
    if (e == ENOTDIR && lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
        e = ELOOP;
    return -e;
}

int file_open_regular(const char *path)
{
    /* O_NONBLOCK: opening a FIFO with no writer would wait for one */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return -1;
    struct stat st;
    int e = fstat(fd, &st) < 0 ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
    if (e) {
        close(fd);
        errno = e;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

FILE *fopen_regular(const char *path)
{
    int fd = file_open_regular(path);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        int e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

int sbuf_read_file(struct sbuf *b, const char *path)
{
    FILE *f = fopen_regular(path); /* never a FIFO (blocks) or a device (endless) */
    if (!f)
        return -errno;
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        sbuf_add(b, chunk, n);
    int bad = ferror(f);
    fclose(f);
    return bad ? -EIO : 0;
}

void sbuf_read_fd(struct sbuf *b, int fd, size_t keep)
{
    char chunk[8192];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        if (b->len < keep)
            sbuf_add(b, chunk, (size_t)n);
    }
}

const char *file_strerror(int e)
{
    if (e < 0)
        e = -e;
    if (e == EINVAL)
        return "not a regular file (a FIFO, a device or a directory)";
    if (e == ELOOP)
        return "a symbolic link (not followed)";
    return strerror(e);
}

int dir_make_nofollow(const char *path, int mode)
{
    int e = mkdir_p(path, mode);
    if (e < 0)
        return e;
    int fd = dir_open_nofollow(path);
    if (fd < 0)
        return fd;
    close(fd);
    return 0;
}

int file_write_at(int dirfd, const char *name, const void *data, size_t len)
{
    char tmp[300];
    if (snprintf(tmp, sizeof tmp, ".%s.%d.tmp", name, (int)getpid()) >= (int)sizeof tmp)
        return -ENAMETOOLONG;
    unlinkat(dirfd, tmp, 0); /* a stale one of this pid's */
    int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return -errno;
    const char *p = data;
    int rc = 0;
    while (len > 0 && rc == 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno != EINTR)
            rc = -errno;
        else if (n > 0)
            p += n, len -= (size_t)n;
    }
    if (close(fd) < 0 && rc == 0)
        rc = -errno;
    if (rc == 0 && renameat(dirfd, tmp, dirfd, name) < 0)
        rc = -errno;
    if (rc < 0)
        unlinkat(dirfd, tmp, 0);
    return rc;
}
