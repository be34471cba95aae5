/* pthread_mutex5 - lock one global mutex, bump a thread-local counter,
 * unlock: pthread_mutex4 with the data in TLS instead of on the stack.
 * Processes each have their own mutex (uncontended). */
#include "micro/mutexloop.h"

static pthread_mutex_t global = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local volatile unsigned long counter;

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_mutex_counter_loop(t, it, &global, &counter); /* this thread's copy */
}

const struct micro_test micro_test_pthread_mutex5 = {
    "pthread_mutex5",
    "lock+thread-local counter update+unlock of one global mutex; unit: one lock and unlock",
    0,
    NULL,
    NULL,
    loop};
