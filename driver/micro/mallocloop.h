/*
 * mallocloop.h - the loop shared by malloc1 and malloc2: malloc and free one
 * block. One test file each, as will-it-scale has them, but one loop for the
 * pair, since they differ only in the size (above or below the allocator's
 * mmap threshold).
 */
#ifndef DBSCALE_MICRO_MALLOCLOOP_H
#define DBSCALE_MICRO_MALLOCLOOP_H

#include <stddef.h>

#include "micro/harness.h"

/* malloc(size) and free it untouched, counting pairs. */
int micro_malloc_loop(struct micro_task *t, volatile uint64_t *it, size_t size);

#endif
