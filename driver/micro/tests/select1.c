/* select1 - select(2) one idle pipe with a zero timeout (poll1 with select). */
#include <sys/select.h>
#include <unistd.h>

#include "micro/harness.h"

#define NFDS 1

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    int fds[NFDS], max = -1;
    for (int i = 0; i < NFDS; i++) {
        int p[2];
        if (pipe(p) < 0)
            return micro_fail(t, "pipe");
        if (p[0] >= FD_SETSIZE)
            return micro_na(t, "fd number above FD_SETSIZE (too many tasks for select)");
        fds[i] = p[0];
        max = p[0] > max ? p[0] : max;
    }
    for (;;) {
        fd_set rd;
        struct timeval tv = {0, 0};
        FD_ZERO(&rd);
        for (int i = 0; i < NFDS; i++)
            FD_SET(fds[i], &rd);
        if (select(max + 1, &rd, NULL, NULL, &tv) < 0)
            return micro_fail(t, "select");
        (*it)++;
    }
}

const struct micro_test micro_test_select1 = {
    "select1", "select(2) of 1 idle pipe fd(s), zero timeout; unit: one select call", 0, NULL, NULL,
    loop};
