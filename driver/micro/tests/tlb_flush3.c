/* tlb_flush3 - per page of a shared mapping of the task's own 128 MB file:
 * write it (dirtying the page-cache page), drop the mapping of it with
 * madvise(MADV_DONTNEED), which must flush its TLB entry everywhere the
 * address space runs, and read it back, still 1, from the page cache. In
 * thread mode each drop sends flush IPIs to the other tasks' CPUs; a
 * process flushes only its own. */
#include <sys/mman.h>

#include "micro/mapfile.h"
#include "micro/tlbflush.h"

#define MEMSIZE (128u << 20)

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    /* only the mapping is dropped: the file keeps the write */
    return micro_tlbflush_loop(t, it, MEMSIZE, MAP_SHARED, 1,
                               "MADV_DONTNEED lost a shared page's data");
}

const struct micro_test micro_test_tlb_flush3 = {
    "tlb_flush3",
    "write, madvise(MADV_DONTNEED) and re-read of each page of a shared mapping of the task's own "
    "128 MB file; unit: one page dropped",
    0,
    NULL,
    micro_mapfile_setup,
    loop};
