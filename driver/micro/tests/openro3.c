/* openro3 - open3 read-only: the same shared file, opened O_RDONLY, so no
 * write access accounting on the inode. */
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
        int fd = open(t->path, O_RDONLY);
        if (fd < 0)
            return micro_fail(t, "open");
        if (close(fd) < 0)
            return micro_fail(t, "close");
        (*it)++;
    }
}

const struct micro_test micro_test_openro3 = {
    "openro3", "open+close (read-only) of one shared file; unit: one open and close",
    0,         prepare,
    setup,     loop};
