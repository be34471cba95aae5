/* poll2 - poll(2) 128 idle pipes with a zero timeout: the per-fd cost of asking each file for its
 * state. */
#include "micro/fdwait.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_poll_loop(t, it, 128);
}

const struct micro_test micro_test_poll2 = {
    "poll2", "poll(2) of 128 idle pipe fd(s), zero timeout; unit: one poll call", 0, NULL, NULL,
    loop};
