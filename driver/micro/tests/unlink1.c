/* unlink1 - create and unlink a private file name in the shared directory:
 * every task modifies the same directory. */
#include "micro/fileops.h"

static int setup(struct micro_task *t)
{
    micro_path(t, t->path, sizeof t->path, "unlink1.%d");
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_create_unlink_loop(t, it);
}

const struct micro_test micro_test_unlink1 = {
    "unlink1",
    "create+close+unlink of the task's own file in one shared dir; unit: one create and unlink",
    0,
    NULL,
    setup,
    loop};
