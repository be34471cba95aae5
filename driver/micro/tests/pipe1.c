/* pipe1 - write one byte into a private pipe and read it back: the pipe
 * buffer and its lock, with no wake-up and no context switch. */
#include <unistd.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    int fd[2];
    char c = 0;
    if (pipe(fd) < 0)
        return micro_fail(t, "pipe");
    for (;;) {
        if (write(fd[1], &c, 1) != 1)
            return micro_fail(t, "write");
        if (read(fd[0], &c, 1) != 1)
            return micro_fail(t, "read");
        (*it)++;
    }
}

const struct micro_test micro_test_pipe1 = {
    "pipe1", "write+read of one byte through the task's own pipe; unit: one write and read",
    0,       NULL,
    NULL,    loop};
