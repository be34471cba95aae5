/*
 * signals.c - one place that catches SIGINT and SIGTERM.
 *
 * Before this room, four stop flags and a re-raise each caught the signals
 * around their own stretch of work, and one verb turned SIGTERM into 130.
 * The idea: install once, remember which signal came first, and let rooms
 * register what must happen at once (wake a pool) as an action slot the
 * handler calls. Everything else polls. The handler does nothing but store
 * and call the registered actions, so it is async-signal-safe as long as
 * they are; this room never prints, never exits, never restores handlers
 * mid-run (a signal between two stretches of work must not be lost).
 */
#include "core/signals.h"

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#define NSLOTS 8

struct slot {
    void (*_Atomic fn)(void *);
    void *_Atomic arg;
};

static volatile sig_atomic_t caught;
static atomic_int installed;
static struct slot slots[NSLOTS];

static void on_signal(int sig)
{
    if (!caught)
        caught = sig;
    for (int i = 0; i < NSLOTS; i++) {
        void (*fn)(void *) = atomic_load(&slots[i].fn);
        if (fn)
            fn(atomic_load(&slots[i].arg));
    }
}

int signals_install(void)
{
    if (atomic_exchange(&installed, 1))
        return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    if (sigaction(SIGINT, &sa, NULL) < 0 || sigaction(SIGTERM, &sa, NULL) < 0) {
        atomic_store(&installed, 0);
        return -1;
    }
    return 0;
}

int signals_caught(void)
{
    return caught;
}

volatile sig_atomic_t *signals_flag(void)
{
    return &caught;
}

int signals_exit_code(void)
{
    return caught ? 128 + caught : 0;
}

int signals_on_stop(void (*fn)(void *), void *arg)
{
    for (int i = 0; i < NSLOTS; i++) {
        void (*none)(void *) = NULL;
        /* arg first: the handler may run between the two stores. */
        if (atomic_load(&slots[i].fn) == NULL) {
            atomic_store(&slots[i].arg, arg);
            if (atomic_compare_exchange_strong(&slots[i].fn, &none, fn))
                return i;
        }
    }
    return -1;
}

void signals_off(int id)
{
    if (id >= 0 && id < NSLOTS)
        atomic_store(&slots[id].fn, NULL);
}

void signals_reset(void)
{
    caught = 0;
}
