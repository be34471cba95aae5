/* access2 - access(2) of one file shared by all tasks: the same inode and
 * dentry under every task, so it shows contention on lookup. */
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
        if (access(t->path, R_OK) < 0)
            return micro_fail(t, "access");
        (*it)++;
    }
}

const struct micro_test micro_test_access2 = {
    "access2", "access(2) of one shared file; unit: one access call", 0, prepare, setup, loop};
