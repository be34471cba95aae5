/* lock1 - fcntl(2) write lock and unlock of one byte of a private file:
 * the cost of the POSIX lock machinery without contention. */
#include <fcntl.h>

#include "micro/fileops.h"

static int setup(struct micro_task *t)
{
    t->fd = micro_open(t, "lock1.%d", O_RDWR | O_CREAT);
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_lock_loop(t, it);
}

const struct micro_test micro_test_lock1 = {
    "lock1", "fcntl(2) lock+unlock of the task's own file; unit: one fcntl call", 0, NULL, setup,
    loop};
