/*
 * sharedio.h - the tests on one file shared by all tasks: the I/O ones
 * (pread2/3, pwrite2/3, readseek2/3, writeseek2/3) and the path tests on
 * one shared name (open3, openro3, stat2, access2). One
 * file per test, as will-it-scale has them, but one prepare/setup/loop per
 * family, since the files differ only in the call, the open flags, or
 * whether every task uses offset 0 (2) or its own 4 KB slot (3).
 */
#ifndef DBSCALE_MICRO_SHAREDIO_H
#define DBSCALE_MICRO_SHAREDIO_H

#include "micro/harness.h"

enum micro_io { MICRO_PREAD, MICRO_PWRITE, MICRO_SEEK_READ, MICRO_SEEK_WRITE };

/* One file "shared" of a 4 KB slot per task (run once per point). */
int micro_shared_prepare(struct micro_task *t);
/* Each task opens it read-write. */
int micro_shared_setup(struct micro_task *t);
/* 4 KB transfers with op at offset 0 (own_slot 0) or at the task's own slot,
 * counting transfers. */
int micro_shared_io_loop(struct micro_task *t, volatile uint64_t *it, enum micro_io op,
                         int own_slot);

/* An empty "shared" file that every task's t->path names: open3, openro3,
 * stat2 and access2 (their loops are fileops.h's). */
int micro_shared_path_prepare(struct micro_task *t);
int micro_shared_path_setup(struct micro_task *t);

#endif
