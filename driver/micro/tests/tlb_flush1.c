/* tlb_flush1 - per page of a private mapping of the task's own 128 MB file:
 * write it (a copy-on-write fault), drop it with madvise(MADV_DONTNEED),
 * which must flush its TLB entry everywhere the address space runs, and
 * read it back as the file's zero. Threads share one address space, so in
 * thread mode each drop sends flush IPIs to the other tasks' CPUs; a
 * process only flushes its own. */
#include <sys/mman.h>

#include "micro/mapfile.h"
#include "micro/tlbflush.h"

#define MEMSIZE (128u << 20)

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    /* the private copy must be gone, the file's page back */
    return micro_tlbflush_loop(t, it, MEMSIZE, MAP_PRIVATE, 0,
                               "MADV_DONTNEED kept a private page's data");
}

const struct micro_test micro_test_tlb_flush1 = {
    "tlb_flush1",
    "write, madvise(MADV_DONTNEED) and re-read of each page of a private mapping of the task's "
    "own 128 MB file; unit: one page dropped",
    0,
    NULL,
    micro_mapfile_setup,
    loop};
