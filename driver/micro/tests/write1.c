/* write1 - write(2) of 4 KB, sequentially through a 1 MB file, rewinding at its end, on the task's
 * own file; writes dirty the page cache, never synced. */
#include <fcntl.h>
#include <unistd.h>

#include "micro/harness.h"

#define FILESIZE (1u << 20)

static int setup(struct micro_task *t)
{
    t->fd = micro_file(t, "write1.%d", FILESIZE);
    if (t->fd >= 0 && lseek(t->fd, 0, SEEK_SET) < 0)
        return micro_fail(t, "lseek");
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    static _Thread_local char buf[4096];
    size_t pos = 0;
    for (;;) {
        if (write(t->fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            return micro_fail(t, "write");
        pos += sizeof buf;
        if (pos >= FILESIZE && lseek(t->fd, 0, SEEK_SET) < 0)
            return micro_fail(t, "lseek");
        pos %= FILESIZE;
        (*it)++;
    }
}

const struct micro_test micro_test_write1 = {
    "write1", "write(2) of 4 KB through the task's own file; unit: one write call", 0, NULL, setup,
    loop};
