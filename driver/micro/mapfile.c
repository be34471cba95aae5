/*
 * mapfile.c - setup and loops behind page_fault2/3/4. The file is sized but
 * never written, so every first touch of a page faults (or maps a large
 * folio at once, where the filesystem's page cache has them): the count is
 * of pages touched, written or read.
 */
#include "micro/mapfile.h"

#include <sys/mman.h>
#include <unistd.h>

#define MEMSIZE (128u << 20)

int micro_mapfile_setup(struct micro_task *t)
{
    t->fd = micro_file(t, "mapfile.%d", 0);
    if (t->fd >= 0 && ftruncate(t->fd, MEMSIZE) < 0)
        return micro_fail(t, "ftruncate");
    return t->fd < 0 ? -1 : 0;
}

/* Map, touch every page (write 1, or read), unmap, again. */
static int touch_loop(struct micro_task *t, volatile uint64_t *it, int flags, int write)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (;;) {
        char *p = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, flags, t->fd, 0);
        if (p == MAP_FAILED)
            return micro_fail(t, "mmap");
        for (size_t off = 0; off < MEMSIZE; off += page) {
            if (write)
                p[off] = 1;
            else
                (void)*(volatile char *)(p + off);
            (*it)++;
        }
        if (munmap(p, MEMSIZE) < 0)
            return micro_fail(t, "munmap");
    }
}

int micro_mapfile_loop(struct micro_task *t, volatile uint64_t *it, int flags)
{
    return touch_loop(t, it, flags, 1);
}

int micro_mapfile_read_loop(struct micro_task *t, volatile uint64_t *it)
{
    /* a read never breaks copy-on-write: each fault maps a page-cache page */
    return touch_loop(t, it, MAP_PRIVATE, 0);
}
