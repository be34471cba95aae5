/*
 * safefile.h - opening what dbscale reads and writes without being fooled
 * by what a results directory (or a careless path) holds: a symbolic link
 * is never followed where dbscale writes or deletes (a planted DIR/plots
 * link would send graphs, and the removal of stale ones, anywhere), and
 * only a regular file is read where a file is expected (a FIFO blocks
 * forever, /dev/zero never ends, a directory reads as nothing).
 */
#ifndef DBSCALE_SAFEFILE_H
#define DBSCALE_SAFEFILE_H

#include <stddef.h>
#include <stdio.h>

/* Open the directory path, not following a link at its last component:
 * an O_DIRECTORY fd (close-on-exec), or -errno (-ELOOP for a link). */
int dir_open_nofollow(const char *path);

/* mkdir -p path, then make sure path itself is a directory and no link
 * (links above it are the caller's path, followed): 0 or -errno. */
int dir_make_nofollow(const char *path, int mode);

/* Open path for reading only if it is a regular file (links followed: the
 * file they name is checked). The fd, or -1 with errno: EINVAL when it is
 * not a regular file (file_strerror says so). Never blocks on a FIFO. */
int file_open_regular(const char *path);
/* The same as a stdio stream ("r"); NULL with errno. */
FILE *fopen_regular(const char *path);

/* name under the directory dirfd written whole: a new temporary file
 * (O_EXCL, no link followed) renamed over it, so a reader sees the old
 * file or the new one and a link planted under name is replaced, never
 * followed. 0, or -errno. */
int file_write_at(int dirfd, const char *name, const void *data, size_t len);

/* strerror, but saying what dbscale's own refusals mean: EINVAL "not a
 * regular file", ELOOP "a symbolic link (not followed)". */
const char *file_strerror(int e);

#endif
