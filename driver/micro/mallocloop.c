/*
 * mallocloop.c - the malloc/free loop behind malloc1/2. The block is never
 * touched: what is measured is the allocator's path for that size (an mmap
 * and munmap, or its per-thread cache), never page faults.
 */
#include "micro/mallocloop.h"

#include <stdlib.h>

int micro_malloc_loop(struct micro_task *t, volatile uint64_t *it, size_t size)
{
    for (;;) {
        /* volatile: a malloc freed unused may otherwise be compiled away */
        void *volatile p = malloc(size);
        if (!p)
            return micro_fail(t, "malloc");
        free(p);
        (*it)++;
    }
}
