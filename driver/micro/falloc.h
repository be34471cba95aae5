/*
 * falloc.h - the loop shared by fallocate1 and fallocate2: fallocate(2) a
 * file forward in 8 KB steps to 1 MB, truncate it, again. One test file
 * each, as will-it-scale has them, but one loop for the pair, since they
 * differ only in where the file is (tmpfs or the scratch directory).
 */
#ifndef DBSCALE_MICRO_FALLOC_H
#define DBSCALE_MICRO_FALLOC_H

#include "micro/harness.h"

/* fallocate t->fd in 8 KB steps to 1 MB, ftruncate it to 0, again, counting
 * fallocate calls; N/A where the filesystem has no fallocate. */
int micro_falloc_loop(struct micro_task *t, volatile uint64_t *it);

#endif
