/* access1 - access(2) of a private file per task. The path walk and
 * permission check on an uncontended inode; must scale with tasks. */
#include "micro/fileops.h"

static int setup(struct micro_task *t)
{
    if (micro_make(t, "access1.%d", 0) < 0)
        return -1;
    micro_path(t, t->path, sizeof t->path, "access1.%d");
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_access_loop(t, it);
}

const struct micro_test micro_test_access1 = {
    "access1", "access(2) of the task's own file; unit: one access call", 0, NULL, setup, loop};
