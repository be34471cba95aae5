/* open1 - open(2) and close(2) of a private file in the shared directory:
 * path walk, file allocation, fd install; the directory is read-shared. */
#include <fcntl.h>

#include "micro/fileops.h"

static int setup(struct micro_task *t)
{
    if (micro_make(t, "open1.%d", 0) < 0)
        return -1;
    micro_path(t, t->path, sizeof t->path, "open1.%d");
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_open_close_loop(t, it, O_RDWR);
}

const struct micro_test micro_test_open1 = {
    "open1", "open+close of the task's own file in one shared dir; unit: one open and close",
    0,       NULL,
    setup,   loop};
