/* lseek2 - lseek(2) to offset 0 on one shared file (own fd per task): the fd lookup and the
 * file position update, nothing else. */
#include <fcntl.h>

#include "micro/fileops.h"

static int prepare(struct micro_task *t)
{
    return micro_make(t, "shared", 4096);
}

static int setup(struct micro_task *t)
{
    t->fd = micro_open(t, "shared", O_RDWR | O_CREAT);
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_lseek_loop(t, it);
}

const struct micro_test micro_test_lseek2 = {
    "lseek2", "lseek(2) on one shared file (own fd per task); unit: one lseek call",
    0,        prepare,
    setup,    loop};
