/* fstat2 - fstat(2) of one shared file through the task's own fd: fstat1's
 * fd lookup, but every task reads the same inode. */
#include <fcntl.h>
#include <sys/stat.h>

#include "micro/sharedio.h"

static int setup(struct micro_task *t)
{
    t->fd = micro_open(t, "shared", O_RDONLY);
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    struct stat st;
    for (;;) {
        if (fstat(t->fd, &st) < 0)
            return micro_fail(t, "fstat");
        (*it)++;
    }
}

const struct micro_test micro_test_fstat2 = {
    "fstat2", "fstat(2) of one shared file (own fd per task); unit: one fstat call",
    0,        micro_shared_path_prepare,
    setup,    loop};
