/*
 * odirect.c - open and loop behind read3/read4. The page cache is bypassed,
 * so every read goes to the block layer (or the filesystem's direct-I/O
 * path). A filesystem that refuses O_DIRECT makes the point N/A, never a
 * failure: that is the filesystem's choice, not a fault of the test.
 */
#include "micro/odirect.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

int micro_odirect_open(struct micro_task *t, const char *name)
{
    t->fd = micro_open(t, name, O_RDONLY | O_DIRECT);
    if (t->fd < 0 && errno == EINVAL)
        return micro_na(t, "O_DIRECT not supported on this filesystem");
    return t->fd < 0 ? -1 : 0;
}

int micro_odirect_read_loop(struct micro_task *t, volatile uint64_t *it)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    char *buf = aligned_alloc(page, page); /* O_DIRECT wants an aligned buffer */
    if (!buf)
        return micro_fail(t, "aligned_alloc");
    for (;;) {
        ssize_t n = read(t->fd, buf, page);
        if (n < 0 && errno == EINVAL)
            return micro_na(t, "O_DIRECT read of one page refused (EINVAL) on this filesystem");
        if (n < 0)
            return micro_fail(t, "read");
        if (n == 0 && lseek(t->fd, 0, SEEK_SET) < 0)
            return micro_fail(t, "lseek");
        (*it)++;
    }
}
