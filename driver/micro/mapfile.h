/*
 * mapfile.h - page_fault2 and page_fault3: write faults on a mapping of the
 * task's own 128 MB file, private (copy-on-write) or shared. One file per
 * test, one setup and loop for the pair, which differs only in the flag;
 * page_fault1 runs the same loop on anonymous memory, page_fault4 its read
 * twin on a private mapping of the same file.
 */
#ifndef DBSCALE_MICRO_MAPFILE_H
#define DBSCALE_MICRO_MAPFILE_H

#include "micro/harness.h"

/* The task's own 128 MB file. */
int micro_mapfile_setup(struct micro_task *t);
/* Map 128 MB of t->fd with flags (MAP_PRIVATE or MAP_SHARED; or
 * MAP_PRIVATE | MAP_ANONYMOUS with fd -1), write one byte per page, unmap,
 * again; counts pages written. */
int micro_mapfile_loop(struct micro_task *t, volatile uint64_t *it, int flags);
/* The same with one byte read per page of a MAP_PRIVATE mapping of t->fd
 * (page_fault4); counts pages read. */
int micro_mapfile_read_loop(struct micro_task *t, volatile uint64_t *it);

#endif
