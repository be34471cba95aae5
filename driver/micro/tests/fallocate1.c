/* fallocate1 - fallocate(2) the task's own tmpfs file forward in 8 KB steps
 * to 1 MB, then truncate it to empty and start again: tmpfs's page
 * allocation and accounting, with no disk. The file is an O_TMPFILE in
 * /dev/shm, so it has no name and nothing can be left behind; where
 * /dev/shm is not a tmpfs the point is N/A. */
#include <errno.h>
#include <fcntl.h>
#include <sys/statfs.h>

#include "micro/falloc.h"

#define TMPFS 0x01021994
#define SHM   "/dev/shm"

static int setup(struct micro_task *t)
{
    struct statfs s;
    if (statfs(SHM, &s) < 0 || (unsigned long)s.f_type != TMPFS)
        return micro_na(t, SHM " is not a tmpfs");
    t->fd = open(SHM, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (t->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR))
        return micro_na(t, "no O_TMPFILE on " SHM);
    if (t->fd < 0)
        return micro_fail(t, "open(" SHM ", O_TMPFILE)");
    return 0;
}

const struct micro_test micro_test_fallocate1 = {
    "fallocate1",
    "fallocate(2) of 8 KB steps through the task's own 1 MB tmpfs file, truncated at its end; "
    "unit: one fallocate call",
    0,
    NULL,
    setup,
    micro_falloc_loop};
