/* futex2 - futex(FUTEX_WAIT) on a word of the task's own that never holds
 * the expected value, so the call returns EAGAIN at once: the shared
 * futex's key lookup and the bucket lock, never a sleep. */
#include <errno.h>
#include <linux/futex.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        unsigned int word = 0;
        /* Waits only while word == 1: it is 0, so EAGAIN is the success case. */
        long r = syscall(SYS_futex, &word, FUTEX_WAIT, 1, NULL, NULL, 0);
        if (r == 0) {
            snprintf(t->err, sizeof t->err, "futex(FUTEX_WAIT) returned 0 on a mismatched value");
            return -1;
        }
        if (errno != EAGAIN)
            return micro_fail(t, "futex(FUTEX_WAIT)");
        (*it)++;
    }
}

const struct micro_test micro_test_futex2 = {
    "futex2",
    "futex(FUTEX_WAIT) on the task's own word, value mismatch (EAGAIN, no sleep); unit: one "
    "futex call",
    0,
    NULL,
    NULL,
    loop};
