/* fallocate2 - fallocate(2) the task's own file in the scratch directory
 * forward in 8 KB steps to 1 MB, then truncate it to empty and start again:
 * fallocate1 on the filesystem under test (extent allocation and the
 * journal, never data writes). Where the filesystem has no fallocate the
 * point is N/A. */
#include "micro/falloc.h"

static int setup(struct micro_task *t)
{
    t->fd = micro_file(t, "fallocate2.%d", 0);
    return t->fd < 0 ? -1 : 0;
}

const struct micro_test micro_test_fallocate2 = {
    "fallocate2",
    "fallocate(2) of 8 KB steps through the task's own 1 MB file in the scratch dir, truncated at "
    "its end; unit: one fallocate call",
    0,
    NULL,
    setup,
    micro_falloc_loop};
