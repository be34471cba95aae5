/* malloc2 - malloc and free 1 KB: served from the allocator's per-thread
 * cache, no system call; the user-space reference for malloc1. */
#include <stdlib.h>

#include "micro/harness.h"

#define SIZE 1024u

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        /* volatile: a malloc freed unused may otherwise be compiled away */
        void *volatile p = malloc(SIZE);
        if (!p)
            return micro_fail(t, "malloc");
        free(p);
        (*it)++;
    }
}

const struct micro_test micro_test_malloc2 = {
    "malloc2", "malloc+free of 1 KB; unit: one malloc and free", 0, NULL, NULL, loop};
