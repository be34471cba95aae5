/* lseek1 - lseek(2) to offset 0 on a private file: the fd lookup and the
 * file position update, nothing else. */
#include <fcntl.h>

#include "micro/fileops.h"

static int setup(struct micro_task *t)
{
    t->fd = micro_open(t, "lseek1.%d", O_RDWR | O_CREAT);
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_lseek_loop(t, it);
}

const struct micro_test micro_test_lseek1 = {
    "lseek1", "lseek(2) on a private file; unit: one lseek call", 0, NULL, setup, loop};
