/* pwrite2 - pwrite(2) of 4 KB on one shared file, every task at offset 0; writes dirty the page
 * cache, never synced. */
#include "micro/sharedio.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_shared_io_loop(t, it, MICRO_PWRITE, 0);
}

const struct micro_test micro_test_pwrite2 = {
    "pwrite2",
    "pwrite(2) of 4 KB on one shared file, every task at offset 0; unit: one 4 KB transfer",
    0,
    micro_shared_prepare,
    micro_shared_setup,
    loop};
