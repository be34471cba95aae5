/*
 * studyfd.h - the host's side of a kernels study's directory, by
 * descriptor: OUT opened once (no link, this user's, writable by no one
 * else), every directory under it made and opened relative to its parent
 * without following a link, files written there atomically, and a
 * variant's results directory, which a guest may write, checked after each
 * boot for what a guest must never leave on the host (a link, a device, a
 * setuid, setgid or executable file, a file capability).
 */
#ifndef DBSCALE_STUDYFD_H
#define DBSCALE_STUDYFD_H

#include <stddef.h>

/* Open the directory path (no link at its last component) and check it is
 * this user's and writable by no one else: a directory someone else could
 * write is one they could swap a shared directory in. The fd (close-on-
 * exec), or -1 with err; nothing in it is touched either way. */
int studyfd_open(const char *path, char *err, size_t errlen);

/* The directory name under dirfd, made (0755) if missing, opened without
 * following a link and checked as studyfd_open checks. fd, or -1 with err. */
int studyfd_sub(int dirfd, const char *name, char *err, size_t errlen);

/* name under dirfd written whole: a new temporary file (O_EXCL, no link
 * followed) renamed over it. 0, or -errno. */
int studyfd_write(int dirfd, const char *name, const void *data, size_t len);

/* A writable share's 9p security model for the directory fd: mapped-xattr
 * when its file system keeps user xattrs, else mapped-file. */
const char *studyfd_share_model(int fd);

/* Walk the tree under fd (a variant's results directory) without following
 * a link; remove every entry that is not a plain directory or a regular
 * file without setuid, setgid or execute bits, and every security.capability
 * xattr. The number removed (why names the first, relative to the tree),
 * 0 when the tree is clean, -1 with why when it cannot be read. */
int studyfd_clean(int fd, char *why, size_t whylen);

#endif
