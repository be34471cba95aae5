/*
 * lerrors.h - a scripted run's ignored errors by code (lerrors.c): counted
 * as each one restarts an event, handed to the report in level_result's
 * codes, as the built-in mixes hand theirs.
 */
#ifndef DBSCALE_LERRORS_H
#define DBSCALE_LERRORS_H

#include <pthread.h>

#include "client/worker.h"

struct lerrors {
    pthread_mutex_t mu; /* every connection's state counts here: errors are rare */
    struct err_count c[WORKER_MAX_CODES];
    int n;
};

void lerrors_init(struct lerrors *x);
void lerrors_destroy(struct lerrors *x);
/* One more of code (the first WORKER_MAX_CODES codes are kept). */
void lerrors_count(struct lerrors *x, const char *code);
/* The counts so far into out's codes unless the runner filled them
 * already, and zero them (a sweep's next level). */
void lerrors_take(struct lerrors *x, struct level_result *out);

#endif
