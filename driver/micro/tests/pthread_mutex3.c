/* pthread_mutex3 - lock one global mutex, bump one global counter, unlock:
 * the contended lock of pthread_mutex1 plus the cache line of the data it
 * guards moving with it. Threads share both; each process has its own copy,
 * so process mode is the uncontended reference. */
#include "micro/mutexloop.h"

static pthread_mutex_t global = PTHREAD_MUTEX_INITIALIZER;
static volatile unsigned long counter;

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_mutex_counter_loop(t, it, &global, &counter);
}

const struct micro_test micro_test_pthread_mutex3 = {
    "pthread_mutex3",
    "lock+global counter update+unlock of one global mutex; unit: one lock and unlock",
    0,
    NULL,
    NULL,
    loop};
