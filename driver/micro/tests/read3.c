/* read3 - O_DIRECT read(2) of one page, sequentially through the task's own
 * 1 MB file, rewinding at its end: the page cache is bypassed, so every read
 * goes to the block layer (or the filesystem's direct-I/O path). Where the
 * filesystem refuses O_DIRECT the point is N/A. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "micro/harness.h"

#define FILESIZE (1u << 20)

static int setup(struct micro_task *t)
{
    if (micro_make(t, "read3.%d", FILESIZE) < 0)
        return -1;
    t->fd = micro_open(t, "read3.%d", O_RDONLY | O_DIRECT);
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

const struct micro_test micro_test_read3 = {
    "read3", "O_DIRECT read(2) of one page through the task's own 1 MB file; unit: one read call",
    0,       NULL,
    setup,   loop};
