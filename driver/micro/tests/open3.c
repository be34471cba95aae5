/* open3 - open(2) and close(2) of one file shared by all tasks: the same
 * dentry and inode under every task, contended reference counts. */
#include <fcntl.h>

#include "micro/fileops.h"
#include "micro/sharedio.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_open_close_loop(t, it, O_RDWR);
}

const struct micro_test micro_test_open3 = {
    "open3",
    "open+close (read-write) of one shared file; unit: one open and close",
    0,
    micro_shared_path_prepare,
    micro_shared_path_setup,
    loop};
