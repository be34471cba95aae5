/* mmap2 - map and unmap a private 128 MB file, never touched: mmap1 plus
 * the file's mapping bookkeeping. */
#include <sys/mman.h>
#include <unistd.h>

#include "micro/harness.h"

#define MEMSIZE (128u << 20)

static int setup(struct micro_task *t)
{
    t->fd = micro_file(t, "mmap2.%d", 0);
    if (t->fd >= 0 && ftruncate(t->fd, MEMSIZE) < 0)
        return micro_fail(t, "ftruncate");
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        void *p = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
        if (p == MAP_FAILED)
            return micro_fail(t, "mmap");
        if (munmap(p, MEMSIZE) < 0)
            return micro_fail(t, "munmap");
        (*it)++;
    }
}

const struct micro_test micro_test_mmap2 = {
    "mmap2", "mmap+munmap of the task's own 128 MB file, untouched; unit: one map and unmap",
    0,       NULL,
    setup,   loop};
