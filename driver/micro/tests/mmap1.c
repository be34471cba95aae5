/* mmap1 - map and unmap 128 MB of anonymous memory, never touched: the
 * cost of the address-space lock (shared by threads) and VMA bookkeeping. */
#include <sys/mman.h>

#include "micro/harness.h"

#define MEMSIZE (128u << 20)

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        void *p = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return micro_fail(t, "mmap");
        if (munmap(p, MEMSIZE) < 0)
            return micro_fail(t, "munmap");
        (*it)++;
    }
}

const struct micro_test micro_test_mmap1 = {
    "mmap1", "mmap+munmap of 128 MB anonymous, untouched; unit: one map and unmap", 0, NULL, NULL,
    loop};
