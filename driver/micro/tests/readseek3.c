/* readseek3 - lseek(2)+read(2) of 4 KB on one shared file, each task at its own 4 KB offset; reads
 * hit the page cache. */
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
    off_t off = (off_t)t->id * 4096;
    for (;;) {
        if (lseek(t->fd, off, SEEK_SET) < 0 || read(t->fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            return micro_fail(t, "lseek+read");
        (*it)++;
    }
}

const struct micro_test micro_test_readseek3 = {
    "readseek3",
    "lseek(2)+read(2) of 4 KB on one shared file, each task at its own 4 KB offset; unit: one 4 KB "
    "transfer",
    0,
    prepare,
    setup,
    loop};
