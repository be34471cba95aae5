/* pthread_mutex4 - lock one global mutex, bump a counter on the task's own
 * stack, unlock: pthread_mutex3 with the guarded data kept private, so only
 * the lock's cache line moves between threads. Processes each have their
 * own mutex (uncontended). */
#include <errno.h>
#include <pthread.h>

#include "micro/harness.h"

static pthread_mutex_t global = PTHREAD_MUTEX_INITIALIZER;

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    volatile unsigned long counter = 0; /* volatile: the update must stay in the section */
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

const struct micro_test micro_test_pthread_mutex4 = {
    "pthread_mutex4",
    "lock+local counter update+unlock of one global mutex; unit: one lock and unlock",
    0,
    NULL,
    NULL,
    loop};
