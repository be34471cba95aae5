/*
 * fileops.h - the loops the path and lock tests share. Each test file keeps
 * what makes it that test (which file, in which directory, shared or not, in
 * its setup) and names one of these loops; will-it-scale repeats the loop in
 * every file.
 */
#ifndef DBSCALE_MICRO_FILEOPS_H
#define DBSCALE_MICRO_FILEOPS_H

#include "micro/harness.h"

/* open(t->path, flags) and close, counting pairs (open1/2/3, openro3). */
int micro_open_close_loop(struct micro_task *t, volatile uint64_t *it, int flags);
/* Create t->path exclusively, close and unlink it, counting rounds
 * (unlink1/2). */
int micro_create_unlink_loop(struct micro_task *t, volatile uint64_t *it);
/* fcntl write lock and unlock of byte 0 of t->fd, counting calls
 * (lock1/2). */
int micro_lock_loop(struct micro_task *t, volatile uint64_t *it);

#endif
