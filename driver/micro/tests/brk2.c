/* brk2 - grow the heap by one page and shrink it back, above one page that
 * stays mapped: unlike brk1, the heap's mapping never goes away (each call
 * resizes it rather than making or removing it). The page is added once per
 * process, so threads share it and move the break around the same base,
 * never below it: memory malloc owns is never released under it. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include "micro/harness.h"

static pthread_once_t once = PTHREAD_ONCE_INIT; /* per process: fork copies it unrun */
static char *base;
static int base_errno;

static void grow_one_page(void)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    char *cur = (char *)(((uintptr_t)sbrk(0) + page - 1) & ~(page - 1));
    if (brk(cur + page) < 0)
        base_errno = errno;
    else
        base = cur + page;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    pthread_once(&once, grow_one_page);
    if (!base) {
        errno = base_errno;
        return micro_fail(t, "brk");
    }
    for (;;) {
        if (brk(base + page) < 0)
            return micro_fail(t, "brk");
        if (brk(base) < 0)
            return micro_fail(t, "brk");
        (*it) += 2;
    }
}

const struct micro_test micro_test_brk2 = {
    "brk2", "brk(2) up one page and back above a page kept mapped; unit: one brk call",
    0,      NULL,
    NULL,   loop};
