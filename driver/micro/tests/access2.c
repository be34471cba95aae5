/* access2 - access(2) of one file shared by all tasks: the same inode and
 * dentry under every task, so it shows contention on lookup. */
#include "micro/fileops.h"
#include "micro/sharedio.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_access_loop(t, it);
}

const struct micro_test micro_test_access2 = {"access2",
                                              "access(2) of one shared file; unit: one access call",
                                              0,
                                              micro_shared_path_prepare,
                                              micro_shared_path_setup,
                                              loop};
