/* poll1 - poll(2) one idle pipe with a zero timeout: the poll entry and
 * exit cost with a single file. */
#include <poll.h>
#include <unistd.h>

#include "micro/harness.h"

#define NFDS 1

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    struct pollfd pfd[NFDS];
    for (int i = 0; i < NFDS; i++) {
        int p[2];
        if (pipe(p) < 0)
            return micro_fail(t, "pipe");
        pfd[i] = (struct pollfd){.fd = p[0], .events = POLLIN};
    }
    for (;;) {
        if (poll(pfd, NFDS, 0) < 0)
            return micro_fail(t, "poll");
        (*it)++;
    }
}

const struct micro_test micro_test_poll1 = {
    "poll1", "poll(2) of 1 idle pipe fd(s), zero timeout; unit: one poll call", 0, NULL, NULL,
    loop};
