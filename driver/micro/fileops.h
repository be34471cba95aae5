/*
 * fileops.h - the loops the path, lock and fd tests share. Each test file keeps
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
/* stat(t->path), counting calls (stat1/2/4). */
int micro_stat_loop(struct micro_task *t, volatile uint64_t *it);
/* access(t->path, R_OK), counting calls (access1/2). */
int micro_access_loop(struct micro_task *t, volatile uint64_t *it);
/* lseek(t->fd, 0, SEEK_SET), counting calls (lseek1/2). */
int micro_lseek_loop(struct micro_task *t, volatile uint64_t *it);
/* read(2) of 4 KB from t->fd, rewinding at end of file, counting reads
 * (read1/2). */
int micro_read_loop(struct micro_task *t, volatile uint64_t *it);

#endif
