/*
 * mapfile.c - setup and loop behind page_fault2/3. The file is sized but
 * never written, so every first write to a page faults (or maps a large
 * folio at once, where the filesystem's page cache has them): the count is
 * of pages written.
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

int micro_mapfile_loop(struct micro_task *t, volatile uint64_t *it, int flags)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    for (;;) {
        char *p = mmap(NULL, MEMSIZE, PROT_READ | PROT_WRITE, flags, t->fd, 0);
        if (p == MAP_FAILED)
            return micro_fail(t, "mmap");
        for (size_t off = 0; off < MEMSIZE; off += page) {
            p[off] = 1;
            (*it)++;
        }
        if (munmap(p, MEMSIZE) < 0)
            return micro_fail(t, "munmap");
    }
}
