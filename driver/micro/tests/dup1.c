/* dup1 - dup(2) and close(2) of a private fd. Threads share one fd table,
 * so in thread mode this measures the table's lock. */
#include <unistd.h>

#include "micro/harness.h"

static int setup(struct micro_task *t)
{
    t->fd = micro_file(t, "dup1.%d", 0);
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        int fd = dup(t->fd);
        if (fd < 0)
            return micro_fail(t, "dup");
        if (close(fd) < 0)
            return micro_fail(t, "close");
        (*it)++;
    }
}

const struct micro_test micro_test_dup1 = {
    "dup1", "dup(2)+close(2) of the task's own fd; unit: one dup and close", 0, NULL, setup, loop};
