/* page_fault4 - read faults on a private mapping of the task's own 128 MB
 * file: one byte read per page, then unmap and map again. The file is
 * sized, never written, so each fault maps a page-cache page of zeros
 * (nothing is copied: a read never breaks copy-on-write). */
#include "micro/mapfile.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_mapfile_read_loop(t, it);
}

const struct micro_test micro_test_page_fault4 = {
    "page_fault4",
    "read faults on a private mapping of the task's own 128 MB file; unit: one 4 KB page read (a "
    "fault each, unless the kernel maps several pages at once)",
    0,
    NULL,
    micro_mapfile_setup,
    loop};
