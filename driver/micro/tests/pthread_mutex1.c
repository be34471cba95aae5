/* pthread_mutex1 - lock and unlock one global mutex. Threads share it, so
 * thread mode measures a contended lock; each process has its own copy. */
#include <errno.h>
#include <pthread.h>

#include "micro/harness.h"

static pthread_mutex_t global = PTHREAD_MUTEX_INITIALIZER;

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    int e;
    for (;;) {
        if ((e = pthread_mutex_lock(&global)) != 0 || (e = pthread_mutex_unlock(&global)) != 0)
            break;
        (*it)++;
    }
    errno = e;
    return micro_fail(t, "pthread_mutex_lock");
}

const struct micro_test micro_test_pthread_mutex1 = {
    "pthread_mutex1",
    "lock+unlock of one global mutex; unit: one lock and unlock",
    0,
    NULL,
    NULL,
    loop};
