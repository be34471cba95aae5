/* sched_yield - give up the CPU with nothing else to run on it: the
 * scheduler's entry and pick path. */
#include <sched.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        if (sched_yield() < 0)
            return micro_fail(t, "sched_yield");
        (*it)++;
    }
}

const struct micro_test micro_test_sched_yield = {
    "sched_yield", "sched_yield(2); unit: one call", 0, NULL, NULL, loop};
