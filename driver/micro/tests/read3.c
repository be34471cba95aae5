/* read3 - O_DIRECT read(2) of one page, sequentially through the task's own
 * 1 MB file, rewinding at its end: the page cache is bypassed, so every read
 * goes to the block layer (or the filesystem's direct-I/O path). Where the
 * filesystem refuses O_DIRECT the point is N/A. */
#include "micro/odirect.h"

#define FILESIZE (1u << 20)

static int setup(struct micro_task *t)
{
    if (micro_make(t, "read3.%d", FILESIZE) < 0)
        return -1;
    return micro_odirect_open(t, "read3.%d");
}

const struct micro_test micro_test_read3 = {
    "read3", "O_DIRECT read(2) of one page through the task's own 1 MB file; unit: one read call",
    0,       NULL,
    setup,   micro_odirect_read_loop};
