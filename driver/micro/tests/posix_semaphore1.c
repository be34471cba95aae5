/* posix_semaphore1 - sem_post and sem_wait on a private unnamed semaphore:
 * uncontended, so it measures the user-space fast path (no system call). */
#include <semaphore.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    sem_t s;
    if (sem_init(&s, 0, 0) < 0)
        return micro_fail(t, "sem_init");
    for (;;) {
        if (sem_post(&s) < 0)
            return micro_fail(t, "sem_post");
        if (sem_wait(&s) < 0)
            return micro_fail(t, "sem_wait");
        (*it) += 2;
    }
}

const struct micro_test micro_test_posix_semaphore1 = {
    "posix_semaphore1",
    "sem_post+sem_wait on the task's own semaphore; unit: one sem call",
    0,
    NULL,
    NULL,
    loop};
