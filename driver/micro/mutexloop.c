/*
 * mutexloop.c - the lock/update/unlock loop behind pthread_mutex3/4/5. The
 * counter is reached through a pointer to volatile so the update stays
 * inside the critical section, wherever the caller keeps it; the loop must
 * never touch the counter outside the lock.
 */
#include "micro/mutexloop.h"

#include <errno.h>

int micro_mutex_counter_loop(struct micro_task *t, volatile uint64_t *it, pthread_mutex_t *m,
                             volatile unsigned long *counter)
{
    int e;
    for (;;) {
        if ((e = pthread_mutex_lock(m)) != 0)
            break;
        (*counter)++;
        if ((e = pthread_mutex_unlock(m)) != 0)
            break;
        (*it)++;
    }
    errno = e;
    return micro_fail(t, "pthread_mutex_lock/unlock");
}
