/* select1 - select(2) one idle pipe with a zero timeout (poll1 with select). */
#include "micro/fdwait.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_select_loop(t, it, 1);
}

const struct micro_test micro_test_select1 = {
    "select1", "select(2) of 1 idle pipe fd(s), zero timeout; unit: one select call", 0, NULL, NULL,
    loop};
