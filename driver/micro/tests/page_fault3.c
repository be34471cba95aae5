/* page_fault3 - write faults on a shared mapping of the task's own 128 MB
 * file: page-cache pages dirtied in place. The filesystem decides the cost:
 * where the page cache holds large folios (ext4 from Linux 6.16) one fault
 * can map many pages, so this counts pages written, not faults taken. */
#include <sys/mman.h>

#include "micro/mapfile.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_mapfile_loop(t, it, MAP_SHARED);
}

const struct micro_test micro_test_page_fault3 = {
    "page_fault3",
    "write faults on a shared mapping of the task's own 128 MB file; unit: one 4 KB page written "
    "(a fault each, unless the kernel maps a large folio at once)",
    0,
    NULL,
    micro_mapfile_setup,
    loop};
