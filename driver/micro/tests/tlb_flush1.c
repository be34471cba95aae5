/* tlb_flush1 - per page of a private mapping of the task's own 128 MB file:
 * write it (a copy-on-write fault), drop it with madvise(MADV_DONTNEED),
 * which must flush its TLB entry everywhere the address space runs, and
 * read it back as the file's zero. Threads share one address space, so in
 * thread mode each drop sends flush IPIs to the other tasks' CPUs; a
 * process only flushes its own. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "micro/mapfile.h"

#define MEMSIZE (128u << 20)

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (;;) {
        char *p = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, t->fd, 0);
        if (p == MAP_FAILED)
            return micro_fail(t, "mmap");
        for (size_t off = 0; off < MEMSIZE; off += page) {
            volatile char *c = p + off;
            *c = 1;
            if (madvise(p + off, page, MADV_DONTNEED) < 0)
                return micro_fail(t, "madvise(MADV_DONTNEED)");
            if (*c != 0) { /* the private copy must be gone, the file's page back */
                snprintf(t->err, sizeof t->err, "MADV_DONTNEED kept a private page's data");
                return -1;
            }
            (*it)++;
        }
        if (munmap(p, MEMSIZE) < 0)
            return micro_fail(t, "munmap");
    }
}

const struct micro_test micro_test_tlb_flush1 = {
    "tlb_flush1",
    "write, madvise(MADV_DONTNEED) and re-read of each page of a private mapping of the task's "
    "own 128 MB file; unit: one page dropped",
    0,
    NULL,
    micro_mapfile_setup,
    loop};
