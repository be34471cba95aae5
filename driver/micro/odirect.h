/*
 * odirect.h - the setup and loop shared by read3 and read4: O_DIRECT reads
 * of one page through a 1 MB file. One test file each, as will-it-scale has
 * them, but one open and loop for the pair, since they differ only in
 * whether the file is the task's own or shared by all tasks.
 */
#ifndef DBSCALE_MICRO_ODIRECT_H
#define DBSCALE_MICRO_ODIRECT_H

#include "micro/harness.h"

/* Open name (a %d is the task id) O_RDONLY | O_DIRECT into t->fd; N/A where
 * the filesystem refuses O_DIRECT. 0 or -1. */
int micro_odirect_open(struct micro_task *t, const char *name);
/* read(2) of one page into an aligned buffer, rewinding at end of file,
 * counting reads; N/A where the filesystem refuses the read (EINVAL). */
int micro_odirect_read_loop(struct micro_task *t, volatile uint64_t *it);

#endif
