/* lock2 - fcntl(2) write lock and unlock of the same byte of one shared
 * file. Processes wait for each other (F_SETLKW); threads of one process
 * own the lock together, so only processes contend. */
#include <fcntl.h>

#include "micro/fileops.h"

static int prepare(struct micro_task *t)
{
    return micro_make(t, "shared", 0);
}

static int setup(struct micro_task *t)
{
    t->fd = micro_open(t, "shared", O_RDWR | O_CREAT);
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_lock_loop(t, it);
}

const struct micro_test micro_test_lock2 = {
    "lock2", "fcntl(2) lock+unlock of one shared file (same byte); unit: one fcntl call",
    0,       prepare,
    setup,   loop};
