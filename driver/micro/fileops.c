/*
 * fileops.c - open/close, create/unlink and lock/unlock loops for the path
 * and lock tests (fileops.h). Each returns only on a failed call, named for
 * the report; the harness stops a loop by ending its task.
 */
#include "micro/fileops.h"

#include <fcntl.h>
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
