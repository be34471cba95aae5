/* page_fault1 - write one byte per page of a fresh 128 MB anonymous mapping,
 * then unmap it: page allocation, zeroing and the fault path. */
#include <sys/mman.h>

#include "micro/mapfile.h"

static int setup(struct micro_task *t)
{
    t->fd = -1; /* anonymous: the mapping loop maps no file */
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_mapfile_loop(t, it, MAP_PRIVATE | MAP_ANONYMOUS);
}

const struct micro_test micro_test_page_fault1 = {
    "page_fault1",
    "write faults on 128 MB anonymous memory; unit: one 4 KB page written (a fault each, unless "
    "the kernel maps a large folio at once)",
    0,
    NULL,
    setup,
    loop};
