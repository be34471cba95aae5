/*
 * tlbflush.h - the loop shared by tlb_flush1/2/3: per page of a mapping,
 * write it, madvise(MADV_DONTNEED) it, read it back. One test file each, as
 * will-it-scale has them, but one loop for the family, since the files
 * differ only in the mapping (private or shared file, anonymous) and so in
 * what the re-read must find.
 */
#ifndef DBSCALE_MICRO_TLBFLUSH_H
#define DBSCALE_MICRO_TLBFLUSH_H

#include <stddef.h>

#include "micro/harness.h"

/* Map size bytes with flags (of t->fd, or anonymous with fd -1 when flags
 * hold MAP_ANONYMOUS); per page write 1, drop it, and check the re-read is
 * expect (else fail with t->err = lost); unmap, again. Counts pages dropped. */
int micro_tlbflush_loop(struct micro_task *t, volatile uint64_t *it, size_t size, int flags,
                        char expect, const char *lost);

#endif
