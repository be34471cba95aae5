/* open2 - open(2) and close(2) of a private file in a private directory:
 * nothing shared but the point directory above it. */
#include <fcntl.h>
#include <sys/stat.h>

#include "micro/fileops.h"

static int setup(struct micro_task *t)
{
    char d[512];
    micro_path(t, d, sizeof d, "open2.%d");
    if (mkdir(d, 0755) < 0)
        return micro_fail(t, "mkdir");
    if (micro_make(t, "open2.%d/f", 0) < 0)
        return -1;
    micro_path(t, t->path, sizeof t->path, "open2.%d/f");
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_open_close_loop(t, it, O_RDWR);
}

const struct micro_test micro_test_open2 = {
    "open2", "open+close of the task's own file in its own dir; unit: one open and close",
    0,       NULL,
    setup,   loop};
