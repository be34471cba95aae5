/* pthread_mutex5 - lock one global mutex, bump a thread-local counter,
 * unlock: pthread_mutex4 with the data in TLS instead of on the stack.
 * Processes each have their own mutex (uncontended). */
#include <errno.h>
#include <pthread.h>

#include "micro/harness.h"

static pthread_mutex_t global = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local volatile unsigned long counter;

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    int e;
    for (;;) {
        if ((e = pthread_mutex_lock(&global)) != 0)
            break;
        counter++;
        if ((e = pthread_mutex_unlock(&global)) != 0)
            break;
        (*it)++;
    }
    errno = e;
    return micro_fail(t, "pthread_mutex_lock/unlock");
}

const struct micro_test micro_test_pthread_mutex5 = {
    "pthread_mutex5",
    "lock+thread-local counter update+unlock of one global mutex; unit: one lock and unlock",
    0,
    NULL,
    NULL,
    loop};
