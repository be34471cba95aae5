/* openro3 - open3 read-only: the same shared file, opened O_RDONLY, so no
 * write access accounting on the inode. */
#include <fcntl.h>

#include "micro/fileops.h"
#include "micro/sharedio.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_open_close_loop(t, it, O_RDONLY);
}

const struct micro_test micro_test_openro3 = {
    "openro3",
    "open+close (read-only) of one shared file; unit: one open and close",
    0,
    micro_shared_path_prepare,
    micro_shared_path_setup,
    loop};
