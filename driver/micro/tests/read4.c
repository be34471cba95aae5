/* read4 - O_DIRECT read(2) of one page, sequentially through one shared
 * 1 MB file (own fd per task), rewinding at its end: read3 with every task
 * on the same inode. Where the filesystem refuses O_DIRECT the point is
 * N/A. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "micro/harness.h"

#define FILESIZE (1u << 20)

static int prepare(struct micro_task *t)
{
    return micro_make(t, "shared", FILESIZE);
}

static int setup(struct micro_task *t)
{
    t->fd = micro_open(t, "shared", O_RDONLY | O_DIRECT);
    if (t->fd < 0 && errno == EINVAL)
        return micro_na(t, "O_DIRECT not supported on this filesystem");
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
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

const struct micro_test micro_test_read4 = {
    "read4",
    "O_DIRECT read(2) of one page through one shared 1 MB file (own fd per task); unit: one read "
    "call",
    0,
    prepare,
    setup,
    loop};
