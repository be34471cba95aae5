/* read1 - read(2) of 4 KB, sequentially through a 1 MB file, rewinding at its end, on the task's
 * own file; reads hit the page cache. */
#include <unistd.h>

#include "micro/fileops.h"

#define FILESIZE (1u << 20)

static int setup(struct micro_task *t)
{
    t->fd = micro_file(t, "read1.%d", FILESIZE);
    if (t->fd >= 0 && lseek(t->fd, 0, SEEK_SET) < 0)
        return micro_fail(t, "lseek");
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_read_loop(t, it);
}

const struct micro_test micro_test_read1 = {
    "read1", "read(2) of 4 KB through the task's own file; unit: one read call", 0, NULL, setup,
    loop};
