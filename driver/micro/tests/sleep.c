/* sleep - a harness self-test: each iteration sleeps 10 ms, so a task does
 * at most 100 per second; checks that rates come from measured time.
 * Hidden from "all". */
#include <time.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    struct timespec ts = {0, 10 * 1000 * 1000};
    for (;;) {
        if (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL) != 0)
            return micro_fail(t, "clock_nanosleep");
        (*it)++;
    }
}

const struct micro_test micro_test_sleep = {
    "sleep", "harness self-test: a 10 ms sleep; unit: one sleep", 1, NULL, NULL, loop};
