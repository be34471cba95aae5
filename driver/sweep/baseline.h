/*
 * baseline.h - the kernel baseline of a sweep: micro tests and the file
 * create/remove benchmark on the CPUs the server is held to.
 */
#ifndef DBSCALE_BASELINE_H
#define DBSCALE_BASELINE_H

#include <signal.h>
#include <stddef.h>

/* list: NULL/""/none/off (nothing), default/on, or names of micro tests
 * and "fs". 0, or -1 naming the unknown test in err; checked before a
 * sweep starts anything. */
int baseline_check(const char *list, char *err, size_t errlen);

/* 1 when list asks for any baseline; the tests it names ("default"/"on"
 * expanded), for the verb to print. */
int baseline_enabled(const char *list);
const char *baseline_list(const char *list);

/* Run list on cpus[0..k-1] (1 and k tasks), appending rows labelled variant
 * to dir/micro.csv and dir/fs.csv (each rewritten atomically). Stops early
 * once *stop is set. 0, or -1 with a message in err. */
int baseline_run(const char *list, const int *cpus, int k, const char *dir, const char *variant,
                 volatile sig_atomic_t *stop, char *err, size_t errlen);

#endif
