/* tlb_flush2 - per page of a fresh 1 MB anonymous mapping: write it (a
 * fault allocating a zeroed page), drop it with madvise(MADV_DONTNEED),
 * which must flush its TLB entry everywhere the address space runs, and
 * read it back as zero. tlb_flush1 without a file; in thread mode each drop
 * sends flush IPIs to the other tasks' CPUs, a process flushes only its
 * own. */
#include <sys/mman.h>

#include "micro/tlbflush.h"

#define MEMSIZE (1u << 20)

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    /* a dropped anonymous page comes back zeroed */
    return micro_tlbflush_loop(t, it, MEMSIZE, MAP_PRIVATE | MAP_ANONYMOUS, 0,
                               "MADV_DONTNEED kept an anonymous page's data");
}

const struct micro_test micro_test_tlb_flush2 = {
    "tlb_flush2",
    "write, madvise(MADV_DONTNEED) and re-read of each page of a 1 MB anonymous mapping; unit: "
    "one page dropped",
    0,
    NULL,
    NULL,
    loop};
