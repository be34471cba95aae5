/* tlb_flush2 - per page of a fresh 1 MB anonymous mapping: write it (a
 * fault allocating a zeroed page), drop it with madvise(MADV_DONTNEED),
 * which must flush its TLB entry everywhere the address space runs, and
 * read it back as zero. tlb_flush1 without a file; in thread mode each drop
 * sends flush IPIs to the other tasks' CPUs, a process flushes only its
 * own. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "micro/harness.h"

#define MEMSIZE (1u << 20)

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (;;) {
        char *p = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED)
            return micro_fail(t, "mmap");
        for (size_t off = 0; off < MEMSIZE; off += page) {
            volatile char *c = p + off;
            *c = 1;
            if (madvise(p + off, page, MADV_DONTNEED) < 0)
                return micro_fail(t, "madvise(MADV_DONTNEED)");
            if (*c != 0) { /* a dropped anonymous page comes back zeroed */
                snprintf(t->err, sizeof t->err, "MADV_DONTNEED kept an anonymous page's data");
                return -1;
            }
            (*it)++;
        }
        if (munmap(p, MEMSIZE) < 0)
            return micro_fail(t, "munmap");
    }
}

const struct micro_test micro_test_tlb_flush2 = {
    "tlb_flush2",
    "write, madvise(MADV_DONTNEED) and re-read of each page of a 1 MB anonymous mapping; unit: "
    "one page dropped",
    0,
    NULL,
    NULL,
    loop};
