/* futex3 - futex(FUTEX_WAKE_PRIVATE) of a word of the task's own with no
 * waiter: futex1 without the mapping lookup (a private futex is keyed by
 * address space and address alone). */
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        unsigned int word = 0;
        if (syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) < 0)
            return micro_fail(t, "futex(FUTEX_WAKE_PRIVATE)");
        (*it)++;
    }
}

const struct micro_test micro_test_futex3 = {
    "futex3", "futex(FUTEX_WAKE_PRIVATE) of the task's own word, no waiter; unit: one futex call",
    0,        NULL,
    NULL,     loop};
