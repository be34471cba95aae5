/* unix1 - send one byte over a private AF_UNIX stream socketpair and read
 * it from the other end: the socket layer without a context switch. */
#include <sys/socket.h>
#include <unistd.h>

#include "micro/harness.h"

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    int sv[2];
    char c = 0;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
        return micro_fail(t, "socketpair");
    for (;;) {
        if (write(sv[0], &c, 1) != 1)
            return micro_fail(t, "write");
        if (read(sv[1], &c, 1) != 1)
            return micro_fail(t, "read");
        (*it)++;
    }
}

const struct micro_test micro_test_unix1 = {
    "unix1", "one byte over the task's own unix socketpair; unit: one send and receive",
    0,       NULL,
    NULL,    loop};
