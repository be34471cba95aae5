/* stat1 - stat(2) of a private file: path walk and attribute copy. */
#include "micro/fileops.h"

static int setup(struct micro_task *t)
{
    if (micro_make(t, "stat1.%d", 0) < 0)
        return -1;
    micro_path(t, t->path, sizeof t->path, "stat1.%d");
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_stat_loop(t, it);
}

const struct micro_test micro_test_stat1 = {
    "stat1", "stat(2) of the task's own file; unit: one stat call", 0, NULL, setup, loop};
