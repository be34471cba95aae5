/* stat2 - stat(2) of one shared file: the same dentry and inode under every
 * task. */
#include "micro/fileops.h"
#include "micro/sharedio.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_stat_loop(t, it);
}

const struct micro_test micro_test_stat2 = {"stat2",
                                            "stat(2) of one shared file; unit: one stat call",
                                            0,
                                            micro_shared_path_prepare,
                                            micro_shared_path_setup,
                                            loop};
