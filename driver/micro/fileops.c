/*
 * fileops.c - the loops of the path, lock and fd tests (fileops.h). Each returns only on a failed
 * call, named for the report; the harness stops a loop by ending its task.
 */
#include "micro/fileops.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int micro_open_close_loop(struct micro_task *t, volatile uint64_t *it, int flags)
{
    for (;;) {
        int fd = open(t->path, flags);
        if (fd < 0)
            return micro_fail(t, "open");
        if (close(fd) < 0)
            return micro_fail(t, "close");
        (*it)++;
    }
}

int micro_create_unlink_loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        int fd = open(t->path, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd < 0)
            return micro_fail(t, "open");
        if (close(fd) < 0)
            return micro_fail(t, "close");
        if (unlink(t->path) < 0)
            return micro_fail(t, "unlink");
        (*it)++;
    }
}

int micro_lock_loop(struct micro_task *t, volatile uint64_t *it)
{
    struct flock l = {.l_whence = SEEK_SET, .l_start = 0, .l_len = 1};
    for (;;) {
        l.l_type = F_WRLCK;
        if (fcntl(t->fd, F_SETLKW, &l) < 0)
            return micro_fail(t, "fcntl(F_WRLCK)");
        l.l_type = F_UNLCK;
        if (fcntl(t->fd, F_SETLKW, &l) < 0)
            return micro_fail(t, "fcntl(F_UNLCK)");
        (*it) += 2;
    }
}

int micro_stat_loop(struct micro_task *t, volatile uint64_t *it)
{
    struct stat st;
    for (;;) {
        if (stat(t->path, &st) < 0)
            return micro_fail(t, "stat");
        (*it)++;
    }
}

int micro_access_loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        if (access(t->path, R_OK) < 0)
            return micro_fail(t, "access");
        (*it)++;
    }
}

int micro_lseek_loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        if (lseek(t->fd, 0, SEEK_SET) < 0)
            return micro_fail(t, "lseek");
        (*it)++;
    }
}

int micro_read_loop(struct micro_task *t, volatile uint64_t *it)
{
    static _Thread_local char buf[4096];
    for (;;) {
        ssize_t n = read(t->fd, buf, sizeof buf);
        if (n < 0)
            return micro_fail(t, "read");
        if (n == 0 && lseek(t->fd, 0, SEEK_SET) < 0)
            return micro_fail(t, "lseek");
        (*it)++;
    }
}
