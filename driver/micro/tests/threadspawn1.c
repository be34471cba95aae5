/* threadspawn1 - create a thread that returns at once and join it: clone,
 * stack setup, exit and reaping. Threads of one process share the address
 * space and its locks; processes each spawn in their own. */
#include <errno.h>
#include <pthread.h>

#include "micro/harness.h"

static void *nothing(void *arg)
{
    return arg;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        pthread_t th;
        int e = pthread_create(&th, NULL, nothing, NULL);
        if (e != 0) {
            errno = e;
            return micro_fail(t, "pthread_create");
        }
        if ((e = pthread_join(th, NULL)) != 0) {
            errno = e;
            return micro_fail(t, "pthread_join");
        }
        (*it)++;
    }
}

const struct micro_test micro_test_threadspawn1 = {
    "threadspawn1",
    "pthread_create+pthread_join of an empty thread; unit: one thread created and "
    "joined",
    0,
    NULL,
    NULL,
    loop};
