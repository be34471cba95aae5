/* brk1 - grow the heap by one page and shrink it back. Threads share one
 * heap, so they all move the break around the same base, never below it:
 * memory malloc owns is never released under it. */
#include <stdatomic.h>
#include <stdint.h>
#include <unistd.h>

#include "micro/harness.h"

static _Atomic uintptr_t base; /* per process: fork gives each task its own */

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), want = 0;
    uintptr_t cur = ((uintptr_t)sbrk(0) + page - 1) & ~(page - 1);
    atomic_compare_exchange_strong(&base, &want, cur);
    char *b = (char *)atomic_load(&base);
    for (;;) {
        if (brk(b + page) < 0)
            return micro_fail(t, "brk");
        if (brk(b) < 0)
            return micro_fail(t, "brk");
        (*it) += 2;
    }
}

const struct micro_test micro_test_brk1 = {
    "brk1", "brk(2) up one page and back; unit: one brk call", 0, NULL, NULL, loop};
