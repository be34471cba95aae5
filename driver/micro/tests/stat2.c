/* stat2 - stat(2) of one shared file: the same dentry and inode under every
 * task. */
#include <sys/stat.h>
#include <unistd.h>

#include "micro/harness.h"

static int prepare(struct micro_task *t)
{
    return micro_make(t, "shared", 0);
}

static int setup(struct micro_task *t)
{
    micro_path(t, t->path, sizeof t->path, "shared");
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    struct stat st;
    for (;;) {
        if (stat(t->path, &st) < 0)
            return micro_fail(t, "stat");
        (*it)++;
    }
}

const struct micro_test micro_test_stat2 = {
    "stat2", "stat(2) of one shared file; unit: one stat call", 0, prepare, setup, loop};
