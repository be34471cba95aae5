/* stat4 - stat(2) of a private file four directories deep: the per-
 * component cost of the path walk. */
#include <sys/stat.h>

#include "micro/fileops.h"

static int setup(struct micro_task *t)
{
    static const char *const dirs[] = {"stat4.%d", "stat4.%d/a", "stat4.%d/a/b", "stat4.%d/a/b/c"};
    for (int i = 0; i < 4; i++) {
        char d[512];
        micro_path(t, d, sizeof d, dirs[i]);
        if (mkdir(d, 0755) < 0)
            return micro_fail(t, "mkdir");
    }
    if (micro_make(t, "stat4.%d/a/b/c/f", 0) < 0)
        return -1;
    micro_path(t, t->path, sizeof t->path, "stat4.%d/a/b/c/f");
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_stat_loop(t, it);
}

const struct micro_test micro_test_stat4 = {
    "stat4", "stat(2) of the task's own file four directories deep; unit: one stat call",
    0,       NULL,
    setup,   loop};
