/* unlink2 - create and unlink a file in a private directory: directory
 * updates that do not contend. */
#include <sys/stat.h>

#include "micro/fileops.h"

static int setup(struct micro_task *t)
{
    char d[512];
    micro_path(t, d, sizeof d, "unlink2.%d");
    if (mkdir(d, 0755) < 0)
        return micro_fail(t, "mkdir");
    micro_path(t, t->path, sizeof t->path, "unlink2.%d/f");
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_create_unlink_loop(t, it);
}

const struct micro_test micro_test_unlink2 = {
    "unlink2", "create+close+unlink of a file in the task's own dir; unit: one create and unlink",
    0,         NULL,
    setup,     loop};
