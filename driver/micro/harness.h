/*
 * micro/harness.h - the face a syscall test is written against.
 *
 * A test is a name, a description that states its unit of work, and one loop
 * that does that work and bumps *iterations. The harness runs the same test
 * source as N processes or N threads, each task pinned to its CPU, all
 * released at once, and samples the counters. Tests never assert: a call that
 * fails returns micro_fail(t, "call"), and the point is reported N/A with
 * that error.
 *
 * Every point runs in a child process the harness kills when sampling ends,
 * so a loop never returns on success and a test needs no cleanup: the kernel
 * reclaims fds, maps and threads, and the harness removes t->dir.
 */
#ifndef DBSCALE_MICRO_HARNESS_H
#define DBSCALE_MICRO_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#define MICRO_ERRLEN 160

struct micro_task {
    int id;                 /* 0 .. ntasks-1; -1 in prepare */
    int ntasks;             /* tasks in this point */
    int cpu;                /* CPU this task is bound to */
    int threaded;           /* 1 = tasks are threads of one process, 0 = processes */
    const char *dir;        /* this point's scratch directory, shared by all tasks */
    int fd;                 /* the test's main fd, for setup to hand to loop */
    char path[512];         /* the test's main path, likewise */
    void *priv;             /* any other per-task state */
    char err[MICRO_ERRLEN]; /* "call: strerror" when a hook returns -1 */
};

struct micro_test {
    const char *name; /* suffix 1 = private resource per task, 2/3 = shared */
    const char *desc; /* what is measured; names the unit one iteration counts */
    int hidden;       /* harness self-tests, not part of "all" */
    /* Optional, once per point in the parent before any task exists: create
     * the shared files. Must leave no fds or maps open (the parent lives on). */
    int (*prepare)(struct micro_task *t);
    /* Optional, in each task before the start flag. */
    int (*setup)(struct micro_task *t);
    /* Runs until killed; returns only on failure (-1 with t->err set). */
    int (*loop)(struct micro_task *t, volatile uint64_t *iterations);
};

/* Set t->err to "call: strerror(errno)" and return -1. */
int micro_fail(struct micro_task *t, const char *call);
/* Set t->err to "N/A: why" (the test cannot run here) and return -1. */
int micro_na(struct micro_task *t, const char *why);
/* dir/name into buf (name may hold one %d, filled with the task id). */
void micro_path(const struct micro_task *t, char *buf, size_t len, const char *name);
/* Create dir/name (a %d in name is the task id) holding size zero bytes, written
 * not sparse; returns an O_RDWR fd, or -1 with t->err set. */
int micro_file(struct micro_task *t, const char *name, size_t size);
/* micro_file, then close it: a file for setup or prepare to leave behind. 0 or -1. */
int micro_make(struct micro_task *t, const char *name, size_t size);
/* open(dir/name, flags, 0644) (a %d in name is the task id); fd or -1 + t->err. */
int micro_open(struct micro_task *t, const char *name, int flags);
/* Start fn(arg) as a helper on the task's CPU: a sibling process in process
 * mode (in the point's process group; fn may only make plain system
 * calls), a thread in thread mode. 0 or -1 + t->err. */
int micro_helper(struct micro_task *t, void (*fn)(void *), void *arg);

/* The registry: every test, in report order, ending with a NULL name. */
extern const struct micro_test *const micro_tests[];
const struct micro_test *micro_find(const char *name);

#endif
