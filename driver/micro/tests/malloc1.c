/* malloc1 - malloc and free 128 MB: above the allocator's mmap threshold,
 * so each round is an mmap and munmap of untouched memory (mmap1 reached
 * through the C library). */
#include "micro/mallocloop.h"

#define SIZE (128u << 20)

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_malloc_loop(t, it, SIZE);
}

const struct micro_test micro_test_malloc1 = {
    "malloc1", "malloc+free of 128 MB, untouched; unit: one malloc and free", 0, NULL, NULL, loop};
