/* poll1 - poll(2) one idle pipe with a zero timeout: the poll entry and exit cost with a single
 * file. */
#include "micro/fdwait.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    return micro_poll_loop(t, it, 1);
}

const struct micro_test micro_test_poll1 = {
    "poll1", "poll(2) of 1 idle pipe fd(s), zero timeout; unit: one poll call", 0, NULL, NULL,
    loop};
