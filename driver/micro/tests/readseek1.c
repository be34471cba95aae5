/* readseek1 - lseek(2)+read(2) of 4 KB on the task's own file; reads hit the page cache. */
#include <fcntl.h>
#include <unistd.h>

#include "micro/harness.h"

static int setup(struct micro_task *t)
{
    t->fd = micro_file(t, "readseek1.%d", 4096);
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    static _Thread_local char buf[4096];
    off_t off = 0;
    for (;;) {
        if (lseek(t->fd, off, SEEK_SET) < 0 || read(t->fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            return micro_fail(t, "lseek+read");
        (*it)++;
    }
}

const struct micro_test micro_test_readseek1 = {
    "readseek1", "lseek(2)+read(2) of 4 KB on the task's own file; unit: one 4 KB transfer",
    0,           NULL,
    setup,       loop};
