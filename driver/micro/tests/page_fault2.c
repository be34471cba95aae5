/* page_fault2 - write faults on a private (copy-on-write) mapping of the
 * task's own 128 MB file: the file lookup plus an anonymous copy. */
#include <sys/mman.h>

#include "micro/mapfile.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_mapfile_loop(t, it, MAP_PRIVATE);
}

const struct micro_test micro_test_page_fault2 = {
    "page_fault2",
    "write faults on a private mapping of the task's own 128 MB file; unit: one 4 KB page written "
    "(a fault each, unless the kernel maps a large folio at once)",
    0,
    NULL,
    micro_mapfile_setup,
    loop};
