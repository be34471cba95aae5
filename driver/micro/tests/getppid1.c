/* getppid1 - the cheapest real system call: the cost of entering and
 * leaving the kernel, the floor under every other test. */
#include <sys/syscall.h>
#include <unistd.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        if (syscall(SYS_getppid) < 0)
            return micro_fail(t, "getppid");
        (*it)++;
    }
}

const struct micro_test micro_test_getppid1 = {
    "getppid1", "getppid(2); unit: one system call", 0, NULL, NULL, loop};
