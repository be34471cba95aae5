/* writeseek2 - lseek(2)+write(2) of 4 KB on one shared file, every task at offset 0; writes dirty
 * the page cache, never synced. */
#include <fcntl.h>
#include <unistd.h>

#include "micro/harness.h"

static int prepare(struct micro_task *t)
{
    return micro_make(t, "shared", (size_t)t->ntasks * 4096);
}

static int setup(struct micro_task *t)
{
    t->fd = micro_open(t, "shared", O_RDWR);
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    static _Thread_local char buf[4096];
    off_t off = 0;
    for (;;) {
        if (lseek(t->fd, off, SEEK_SET) < 0 || write(t->fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            return micro_fail(t, "lseek+write");
        (*it)++;
    }
}

const struct micro_test micro_test_writeseek2 = {
    "writeseek2",
    "lseek(2)+write(2) of 4 KB on one shared file, every task at offset 0; unit: one 4 KB transfer",
    0,
    prepare,
    setup,
    loop};
