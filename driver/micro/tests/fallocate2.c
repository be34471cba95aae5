/* fallocate2 - fallocate(2) the task's own file in the scratch directory
 * forward in 8 KB steps to 1 MB, then truncate it to empty and start again:
 * fallocate1 on the filesystem under test (extent allocation and the
 * journal, never data writes). Where the filesystem has no fallocate the
 * point is N/A. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "micro/harness.h"

#define FILESIZE (1u << 20)
#define STEP     (FILESIZE / 128)

static int setup(struct micro_task *t)
{
    t->fd = micro_file(t, "fallocate2.%d", 0);
    return t->fd < 0 ? -1 : 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (off_t at = 0;;) {
        if (fallocate(t->fd, 0, at, STEP) < 0) {
            if (errno == EINTR)
                continue; /* the same step again */
            if (errno == EOPNOTSUPP)
                return micro_na(t, "fallocate not supported on this filesystem");
            return micro_fail(t, "fallocate");
        }
        at += STEP;
        if (at >= FILESIZE) {
            if (ftruncate(t->fd, 0) < 0)
                return micro_fail(t, "ftruncate");
            at = 0;
        }
        (*it)++;
    }
}

const struct micro_test micro_test_fallocate2 = {
    "fallocate2",
    "fallocate(2) of 8 KB steps through the task's own 1 MB file in the scratch dir, truncated at "
    "its end; unit: one fallocate call",
    0,
    NULL,
    setup,
    loop};
