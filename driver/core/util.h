/*
 * util.h - the few helpers every room needs: monotonic time, checked
 * allocation, atomic file writes, and error reporting that names the program.
 */
#ifndef DBSCALE_UTIL_H
#define DBSCALE_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes: 0 ok, 1 runtime failure, 2 bad input (as sysbench/pgbench use 1/2). */
enum { EXIT_RUNTIME = 1, EXIT_USAGE = 2 };
/* The verdict's gate, as `dbscale compare` exits (docs/verdicts.md). */
enum { EXIT_REGRESSION = 3, EXIT_INCONCLUSIVE = 4, EXIT_INCOMPARABLE = 5 };

uint64_t now_ns(void); /* CLOCK_MONOTONIC in nanoseconds */
double now_wall(void); /* CLOCK_REALTIME in seconds, for timestamps in results */

void *xmalloc(size_t n); /* abort with a message on OOM, never return NULL */
void *xcalloc(size_t n, size_t sz);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* printf-style message to stderr prefixed with "dbscale: ". */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Same, then exit(code). */
_Noreturn void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Write len bytes to path atomically: a fresh path.tmp.XXXXXX (O_EXCL, never
 * a planted symlink), fsync, rename. 0 or -errno. */
int write_file_atomic(const char *path, const void *data, size_t len);

/* Growable string buffer, for building files before an atomic write. */
struct sbuf {
    char *s;
    size_t len, cap;
};
void sbuf_printf(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_add(struct sbuf *b, const char *s, size_t n);
void sbuf_free(struct sbuf *b);
/* Append s as a JSON string: quoted, with quotes, backslashes and control
 * characters escaped. */
void sbuf_json(struct sbuf *b, const char *s);
/* Append the whole file at path, a regular file (-EINVAL for anything
 * else: safefile.h, whose file safefile.c defines it). 0 or -errno. */
int sbuf_read_file(struct sbuf *b, const char *path);
/* Read fd to its end (a child's pipe), keeping what comes until b holds
 * keep bytes and reading the rest away, so the writer never blocks
 * (safefile.c). */
void sbuf_read_fd(struct sbuf *b, int fd, size_t keep);

/* mkdir -p; 0 or -errno. */
int mkdir_p(const char *path, int mode);

/* Directory holding schemas/, graphs/, configs/: $DBSCALE_DATADIR, then
 * <exe>/../share/dbscale, then the source tree the binary was built in. */
const char *datadir(void);

#endif
