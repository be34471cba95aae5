/* readseek3 - lseek(2)+read(2) of 4 KB on one shared file, each task at its own 4 KB offset; reads
 * hit the page cache. */
#include "micro/sharedio.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_shared_io_loop(t, it, MICRO_SEEK_READ, 1);
}

const struct micro_test micro_test_readseek3 = {
    "readseek3",
    "lseek(2)+read(2) of 4 KB on one shared file, each task at its own 4 KB offset; unit: one 4 KB "
    "transfer",
    0,
    micro_shared_prepare,
    micro_shared_setup,
    loop};
