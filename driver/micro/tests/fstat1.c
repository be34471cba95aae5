/* fstat1 - fstat(2) of a private fd: no path walk, only the fd lookup. */
#include <sys/stat.h>
#include <unistd.h>

#include "micro/harness.h"

static int setup(struct micro_task *t)
{
    t->fd = micro_file(t, "fstat1.%d", 0);
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

const struct micro_test micro_test_fstat1 = {
    "fstat1", "fstat(2) of the task's own fd; unit: one fstat call", 0, NULL, setup, loop};
