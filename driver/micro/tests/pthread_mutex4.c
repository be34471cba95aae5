/* pthread_mutex4 - lock one global mutex, bump a counter on the task's own
 * stack, unlock: pthread_mutex3 with the guarded data kept private, so only
 * the lock's cache line moves between threads. Processes each have their
 * own mutex (uncontended). */
#include "micro/mutexloop.h"

static pthread_mutex_t global = PTHREAD_MUTEX_INITIALIZER;

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    volatile unsigned long counter = 0; /* on this task's stack: private to it */
    return micro_mutex_counter_loop(t, it, &global, &counter);
}

const struct micro_test micro_test_pthread_mutex4 = {
    "pthread_mutex4",
    "lock+local counter update+unlock of one global mutex; unit: one lock and unlock",
    0,
    NULL,
    NULL,
    loop};
