/* read4 - O_DIRECT read(2) of one page, sequentially through one shared
 * 1 MB file (own fd per task), rewinding at its end: read3 with every task
 * on the same inode. Where the filesystem refuses O_DIRECT the point is
 * N/A. */
#include "micro/odirect.h"

#define FILESIZE (1u << 20)

static int prepare(struct micro_task *t)
{
    return micro_make(t, "shared", FILESIZE);
}

static int setup(struct micro_task *t)
{
    return micro_odirect_open(t, "shared");
}

const struct micro_test micro_test_read4 = {
    "read4",
    "O_DIRECT read(2) of one page through one shared 1 MB file (own fd per task); unit: one read "
    "call",
    0,
    prepare,
    setup,
    micro_odirect_read_loop};
