/*
 * tlbflush.c - the write/drop/re-read loop behind tlb_flush1/2/3. Each
 * madvise(MADV_DONTNEED) must flush the page's TLB entry wherever the
 * address space runs, which is the cost measured; the re-read proves the
 * drop happened. The loop must never skip that check (a drop that did
 * nothing would be counted as a flush).
 */
#include "micro/tlbflush.h"

#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

int micro_tlbflush_loop(struct micro_task *t, volatile uint64_t *it, size_t size, int flags,
                        char expect, const char *lost)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    int fd = (flags & MAP_ANONYMOUS) ? -1 : t->fd;
    for (;;) {
        char *p = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, fd, 0);
        if (p == MAP_FAILED)
            return micro_fail(t, "mmap");
        for (size_t off = 0; off < size; off += page) {
            volatile char *c = p + off;
            *c = 1;
            if (madvise(p + off, page, MADV_DONTNEED) < 0)
                return micro_fail(t, "madvise(MADV_DONTNEED)");
            if (*c != expect) {
                snprintf(t->err, sizeof t->err, "%s", lost);
                return -1;
            }
            (*it)++;
        }
        if (munmap(p, size) < 0)
            return micro_fail(t, "munmap");
    }
}
