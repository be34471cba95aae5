/*
 * sharedio.c - prepare, setup and loop behind the shared-file I/O tests. The
 * file is written once, so reads hit the page cache and writes only dirty
 * it (never synced): what is measured is the kernel's file and page-cache
 * locking when tasks share a file, at one offset or at their own.
 */
#include "micro/sharedio.h"

#include <fcntl.h>
#include <unistd.h>

int micro_shared_prepare(struct micro_task *t)
{
    return micro_make(t, "shared", (size_t)t->ntasks * 4096);
}

int micro_shared_setup(struct micro_task *t)
{
    t->fd = micro_open(t, "shared", O_RDWR);
    return t->fd < 0 ? -1 : 0;
}

/* The switch on op is the same every pass: a predicted branch beside a syscall. */
int micro_shared_io_loop(struct micro_task *t, volatile uint64_t *it, enum micro_io op,
                         int own_slot)
{
    static _Thread_local char buf[4096];
    off_t off = own_slot ? (off_t)t->id * 4096 : 0;
    const ssize_t want = (ssize_t)sizeof buf;
    for (;;) {
        switch (op) {
        case MICRO_PREAD:
            if (pread(t->fd, buf, sizeof buf, off) != want)
                return micro_fail(t, "pread");
            break;
        case MICRO_PWRITE:
            if (pwrite(t->fd, buf, sizeof buf, off) != want)
                return micro_fail(t, "pwrite");
            break;
        case MICRO_SEEK_READ:
            if (lseek(t->fd, off, SEEK_SET) < 0 || read(t->fd, buf, sizeof buf) != want)
                return micro_fail(t, "lseek+read");
            break;
        case MICRO_SEEK_WRITE:
            if (lseek(t->fd, off, SEEK_SET) < 0 || write(t->fd, buf, sizeof buf) != want)
                return micro_fail(t, "lseek+write");
            break;
        }
        (*it)++;
    }
}

int micro_shared_path_prepare(struct micro_task *t)
{
    return micro_make(t, "shared", 0);
}

int micro_shared_path_setup(struct micro_task *t)
{
    micro_path(t, t->path, sizeof t->path, "shared");
    return 0;
}
