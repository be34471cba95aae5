/* context_switch1 - ping-pong one byte over two pipes with a helper task
 * bound to the same CPU, so every message is a context switch. */
#include <unistd.h>

#include "micro/harness.h"

struct pp {
    int to[2], from[2];
};

static void echo(void *arg)
{
    struct pp *p = arg;
    char c;
    while (read(p->to[0], &c, 1) == 1 && write(p->from[1], &c, 1) == 1)
        ;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    static _Thread_local struct pp p;
    char c = 0;
    if (pipe(p.to) < 0 || pipe(p.from) < 0)
        return micro_fail(t, "pipe");
    if (micro_helper(t, echo, &p) < 0)
        return -1;
    for (;;) {
        if (write(p.to[1], &c, 1) != 1)
            return micro_fail(t, "write");
        if (read(p.from[0], &c, 1) != 1)
            return micro_fail(t, "read");
        (*it) += 2;
    }
}

const struct micro_test micro_test_context_switch1 = {
    "context_switch1",
    "pipe ping-pong with a helper on the same CPU; unit: one one-way message (a switch)",
    0,
    NULL,
    NULL,
    loop};
