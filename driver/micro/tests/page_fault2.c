/* page_fault2 - write faults on a private (copy-on-write) mapping of the
 * task's own 128 MB file: the file lookup plus an anonymous copy. */
#include <sys/mman.h>
#include <unistd.h>

#include "micro/harness.h"

#define MEMSIZE (128u << 20)

static int setup(struct micro_task *t)
{
    t->fd = micro_file(t, "page_fault2.%d", 0);
    if (t->fd >= 0 && ftruncate(t->fd, MEMSIZE) < 0)
        return micro_fail(t, "ftruncate");
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (;;) {
        char *p = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE, t->fd, 0);
        if (p == MAP_FAILED)
            return micro_fail(t, "mmap");
        for (size_t off = 0; off < MEMSIZE; off += page) {
            p[off] = 1;
            (*it)++;
        }
        if (munmap(p, MEMSIZE) < 0)
            return micro_fail(t, "munmap");
    }
}

const struct micro_test micro_test_page_fault2 = {
    "page_fault2",
    "write faults on a private mapping of the task's own 128 MB file; unit: one 4 KB page "
    "written (a fault each, unless the kernel maps a large folio at once)",
    0,
    NULL,
    setup,
    loop};
