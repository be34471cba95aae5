/* eventfd1 - write 8 bytes to the task's own eventfd and read them back:
 * the counter never blocks (it is read back to zero each round), so this is
 * eventfd's lock and wake-up check with no waiter. */
#include <sys/eventfd.h>
#include <unistd.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    int fd = eventfd(0, EFD_CLOEXEC);
    if (fd < 0)
        return micro_fail(t, "eventfd");
    for (;;) {
        uint64_t v = 1;
        if (write(fd, &v, sizeof v) != (ssize_t)sizeof v)
            return micro_fail(t, "write");
        if (read(fd, &v, sizeof v) != (ssize_t)sizeof v)
            return micro_fail(t, "read");
        (*it)++;
    }
}

const struct micro_test micro_test_eventfd1 = {
    "eventfd1", "write+read of 8 bytes on the task's own eventfd; unit: one write and read",
    0,          NULL,
    NULL,       loop};
