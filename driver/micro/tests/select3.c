/* select3 - select(2) 128 idle pipes with a zero timeout (poll2 with select). */
#include "micro/fdwait.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_select_loop(t, it, 128);
}

const struct micro_test micro_test_select3 = {
    "select3", "select(2) of 128 idle pipe fd(s), zero timeout; unit: one select call",
    0,         NULL,
    NULL,      loop};
