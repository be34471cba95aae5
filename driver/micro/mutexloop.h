/*
 * mutexloop.h - the loop shared by pthread_mutex3/4/5: lock, bump a counter,
 * unlock. One test file each, as will-it-scale has them, but one loop for
 * the family, since the files differ only in where the guarded counter
 * lives (a global, the task's stack, TLS).
 */
#ifndef DBSCALE_MICRO_MUTEXLOOP_H
#define DBSCALE_MICRO_MUTEXLOOP_H

#include <pthread.h>

#include "micro/harness.h"

/* Lock m, ++*counter, unlock m, counting lock+unlock pairs. */
int micro_mutex_counter_loop(struct micro_task *t, volatile uint64_t *it, pthread_mutex_t *m,
                             volatile unsigned long *counter);

#endif
