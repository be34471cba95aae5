/*
 * falloc.c - the allocate/truncate loop behind fallocate1/2. Only space is
 * allocated, never data written, so what is measured is the filesystem's
 * block (or page) allocation and its accounting. An interrupted step is
 * retried, never skipped, so the file always grows to its full size.
 */
#include "micro/falloc.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define FILESIZE (1u << 20)
#define STEP     (FILESIZE / 128)

int micro_falloc_loop(struct micro_task *t, volatile uint64_t *it)
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
