/* read2 - read(2) of 4 KB, sequentially through a 1 MB file, rewinding at its end, on one shared
 * file (own fd per task); reads hit the page cache. */
#include <fcntl.h>

#include "micro/fileops.h"

#define FILESIZE (1u << 20)

static int prepare(struct micro_task *t)
{
    return micro_make(t, "shared", FILESIZE);
}

static int setup(struct micro_task *t)
{
    t->fd = micro_open(t, "shared", O_RDWR);
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_read_loop(t, it);
}

const struct micro_test micro_test_read2 = {
    "read2", "read(2) of 4 KB through one shared file (own fd per task); unit: one read call",
    0,       prepare,
    setup,   loop};
