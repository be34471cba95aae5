/* spin - a harness self-test: a fixed busy loop of MICRO_SPIN_WORK steps
 * per iteration and no system call, so its rate is known from outside (the
 * unit test times the same function directly). Hidden from "all". */
#include "micro/harness.h"
#include "micro/spin.h"

uint64_t micro_spin_work(uint64_t x)
{
    for (int i = 0; i < MICRO_SPIN_WORK; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    return x;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    volatile uint64_t sink = (uint64_t)t->id;
    for (;;) {
        sink = micro_spin_work(sink);
        (*it)++;
    }
    return -1; /* not reached */
}

const struct micro_test micro_test_spin = {
    "spin", "harness self-test: 1000 multiply-adds, no syscall; unit: one round", 1, NULL, NULL,
    loop};
