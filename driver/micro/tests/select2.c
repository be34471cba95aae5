/* select2 - select(2) two idle pipes with a zero timeout. */
#include "micro/fdwait.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_select_loop(t, it, 2);
}

const struct micro_test micro_test_select2 = {
    "select2", "select(2) of 2 idle pipe fd(s), zero timeout; unit: one select call", 0, NULL, NULL,
    loop};
