/* malloc2 - malloc and free 1 KB: served from the allocator's per-thread
 * cache, no system call; the user-space reference for malloc1. */
#include "micro/mallocloop.h"

#define SIZE 1024u

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_malloc_loop(t, it, SIZE);
}

const struct micro_test micro_test_malloc2 = {
    "malloc2", "malloc+free of 1 KB; unit: one malloc and free", 0, NULL, NULL, loop};
