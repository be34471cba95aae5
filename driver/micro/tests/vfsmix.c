/* vfsmix - a small file's whole life, as a build tool or a mail spool does
 * it: mkstemp, lstat, lseek, close, open O_TRUNC, write, mmap + touch +
 * munmap, close, unlink, in the shared directory. */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    char tmpl[512], buf[4096] = {0};
    struct stat st;
    for (;;) {
        micro_path(t, tmpl, sizeof tmpl, "vfsmix.%d.XXXXXX");
        int fd = mkstemp(tmpl);
        if (fd < 0)
            return micro_fail(t, "mkstemp");
        if (lstat(tmpl, &st) < 0)
            return micro_fail(t, "lstat");
        if (lseek(fd, 0, SEEK_END) < 0)
            return micro_fail(t, "lseek");
        close(fd);
        if ((fd = open(tmpl, O_RDWR | O_TRUNC)) < 0)
            return micro_fail(t, "open");
        if (write(fd, buf, sizeof buf) != (ssize_t)sizeof buf)
            return micro_fail(t, "write");
        char *p = mmap(NULL, sizeof buf, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED)
            return micro_fail(t, "mmap");
        p[0] = 1;
        if (munmap(p, sizeof buf) < 0)
            return micro_fail(t, "munmap");
        if (close(fd) < 0)
            return micro_fail(t, "close");
        if (unlink(tmpl) < 0)
            return micro_fail(t, "unlink");
        (*it)++;
    }
}

const struct micro_test micro_test_vfsmix = {
    "vfsmix",
    "mkstemp, lstat, lseek, close, open O_TRUNC, write 4 KB, mmap-touch-munmap, close, "
    "unlink; unit: one whole sequence",
    0,
    NULL,
    NULL,
    loop};
