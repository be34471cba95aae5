/* futex1 - futex(FUTEX_WAKE) of a word of the task's own with no waiter:
 * a shared (not PRIVATE) futex, so each call first looks the word's page up
 * to key it by its mapping, then finds the hash bucket empty. */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        unsigned int word = 0;
        if (syscall(SYS_futex, &word, FUTEX_WAKE, 1, NULL, NULL, 0) < 0)
            return micro_fail(t, "futex(FUTEX_WAKE)");
        (*it)++;
    }
}

const struct micro_test micro_test_futex1 = {
    "futex1", "futex(FUTEX_WAKE) of the task's own word, no waiter; unit: one futex call",
    0,        NULL,
    NULL,     loop};
