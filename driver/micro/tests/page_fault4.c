/* page_fault4 - read faults on a private mapping of the task's own 128 MB
 * file: one byte read per page, then unmap and map again. The file is
 * sized, never written, so each fault maps a page-cache page of zeros
 * (nothing is copied: a read never breaks copy-on-write). */
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
            (void)*(volatile char *)(p + off);
            (*it)++;
        }
        if (munmap(p, MEMSIZE) < 0)
            return micro_fail(t, "munmap");
    }
}

const struct micro_test micro_test_page_fault4 = {
    "page_fault4",
    "read faults on a private mapping of the task's own 128 MB file; unit: one 4 KB page read (a "
    "fault each, unless the kernel maps several pages at once)",
    0,
    NULL,
    micro_mapfile_setup,
    loop};
