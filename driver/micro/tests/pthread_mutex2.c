/* pthread_mutex2 - lock and unlock a private mutex: the uncontended fast
 * path, a reference for pthread_mutex1. */
#include <errno.h>
#include <pthread.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    int e;
    for (;;) {
        if ((e = pthread_mutex_lock(&m)) != 0 || (e = pthread_mutex_unlock(&m)) != 0)
            break;
        (*it)++;
    }
    errno = e;
    return micro_fail(t, "pthread_mutex_lock");
}

const struct micro_test micro_test_pthread_mutex2 = {
    "pthread_mutex2",
    "lock+unlock of the task's own mutex; unit: one lock and unlock",
    0,
    NULL,
    NULL,
    loop};
