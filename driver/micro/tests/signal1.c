/* signal1 - raise(3) SIGUSR1 and run its handler: signal delivery to the
 * calling thread, frame setup and sigreturn. */
#include <signal.h>

#include "micro/harness.h"

static void on_usr1(int sig)
{
    (void)sig;
}

static int setup(struct micro_task *t)
{
    struct sigaction sa = {.sa_handler = on_usr1};
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGUSR1, &sa, NULL) < 0)
        return micro_fail(t, "sigaction");
    return 0;
}

static int loop(struct micro_task *t, volatile uint64_t *it)
{
    for (;;) {
        if (raise(SIGUSR1) != 0)
            return micro_fail(t, "raise");
        (*it)++;
    }
}

const struct micro_test micro_test_signal1 = {
    "signal1", "raise(SIGUSR1) and its handler; unit: one signal delivered", 0, NULL, setup, loop};
