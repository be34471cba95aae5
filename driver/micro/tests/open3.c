/* open3 - open(2) and close(2) of one file shared by all tasks: the same
 * dentry and inode under every task, contended reference counts. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "micro/harness.h"

static int prepare(struct micro_task *t)
{
    return micro_make(t, "shared", 0);
}

static int setup(struct micro_task *t)
{
    micro_path(t, t->path, sizeof t->path, "shared");
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        int fd = open(t->path, O_RDWR);
        if (fd < 0)
            return micro_fail(t, "open");
        if (close(fd) < 0)
            return micro_fail(t, "close");
        (*it)++;
    }
}

const struct micro_test micro_test_open3 = {
    "open3", "open+close (read-write) of one shared file; unit: one open and close",
    0,       prepare,
    setup,   loop};
