/* lock1 - fcntl(2) write lock and unlock of one byte of a private file:
 * the cost of the POSIX lock machinery without contention. */
#include <fcntl.h>
#include <unistd.h>

#include "micro/harness.h"

static int setup(struct micro_task *t)
{
    t->fd = micro_open(t, "lock1.%d", O_RDWR | O_CREAT);
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    struct flock l = {.l_whence = SEEK_SET, .l_start = 0, .l_len = 1};
    for (;;) {
        l.l_type = F_WRLCK;
        if (fcntl(t->fd, F_SETLKW, &l) < 0)
            return micro_fail(t, "fcntl(F_WRLCK)");
        l.l_type = F_UNLCK;
        if (fcntl(t->fd, F_SETLKW, &l) < 0)
            return micro_fail(t, "fcntl(F_UNLCK)");
        (*it) += 2;
    }
}

const struct micro_test micro_test_lock1 = {
    "lock1", "fcntl(2) lock+unlock of the task's own file; unit: one fcntl call", 0, NULL, setup,
    loop};
