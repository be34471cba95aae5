/* page_fault1 - write one byte per page of a fresh 128 MB anonymous mapping,
 * then unmap it: page allocation, zeroing and the fault path. */
#include <sys/mman.h>
#include <unistd.h>

#include "micro/harness.h"

#define MEMSIZE (128u << 20)

static int setup(struct micro_task *t)
{
    t->fd = -1;
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (;;) {
        char *p =
            mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, t->fd, 0);
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

const struct micro_test micro_test_page_fault1 = {
    "page_fault1",
    "write faults on 128 MB anonymous memory; unit: one 4 KB page written (a fault each, unless "
    "the kernel maps a large folio at once)",
    0,
    NULL,
    setup,
    loop};
