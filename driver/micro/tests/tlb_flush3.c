/* tlb_flush3 - per page of a shared mapping of the task's own 128 MB file:
 * write it (dirtying the page-cache page), drop the mapping of it with
 * madvise(MADV_DONTNEED), which must flush its TLB entry everywhere the
 * address space runs, and read it back, still 1, from the page cache. In
 * thread mode each drop sends flush IPIs to the other tasks' CPUs; a
 * process flushes only its own. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "micro/mapfile.h"

#define MEMSIZE (128u << 20)

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (;;) {
        char *p = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);
        if (p == MAP_FAILED)
            return micro_fail(t, "mmap");
        for (size_t off = 0; off < MEMSIZE; off += page) {
            volatile char *c = p + off;
            *c = 1;
            if (madvise(p + off, page, MADV_DONTNEED) < 0)
                return micro_fail(t, "madvise(MADV_DONTNEED)");
            if (*c != 1) { /* only the mapping is dropped: the file keeps the write */
                snprintf(t->err, sizeof t->err, "MADV_DONTNEED lost a shared page's data");
                return -1;
            }
            (*it)++;
        }
        if (munmap(p, MEMSIZE) < 0)
            return micro_fail(t, "munmap");
    }
}

const struct micro_test micro_test_tlb_flush3 = {
    "tlb_flush3",
    "write, madvise(MADV_DONTNEED) and re-read of each page of a shared mapping of the task's own "
    "128 MB file; unit: one page dropped",
    0,
    NULL,
    micro_mapfile_setup,
    loop};
