/*
 * test_signals.c - the one signal room: the first stop signal is kept, the
 * exit code is 128 + it (130 for SIGINT, 143 for SIGTERM), registered stop
 * actions run from the handler, and one that was taken off does not.
 */
#include <signal.h>
#include <stdio.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/signals.h"

static volatile sig_atomic_t woken;

static void wake(void *arg)
{
    woken += *(int *)arg;
}

static void test_codes(void **state)
{
    (void)state;
    assert_int_equal(signals_install(), 0);
    assert_int_equal(signals_install(), 0); /* idempotent */
    signals_reset();
    assert_int_equal(signals_caught(), 0);
    assert_int_equal(signals_exit_code(), 0);
    raise(SIGTERM);
    assert_int_equal(signals_caught(), SIGTERM);
    assert_int_equal(*signals_flag(), SIGTERM);
    assert_int_equal(signals_exit_code(), 143);
    raise(SIGINT); /* the first one is what the verb reports */
    assert_int_equal(signals_exit_code(), 143);
    signals_reset();
    raise(SIGINT);
    assert_int_equal(signals_exit_code(), 130);
    signals_reset();
}

static void test_stop_actions(void **state)
{
    (void)state;
    int one = 1, ten = 10;
    signals_install();
    woken = 0;
    int a = signals_on_stop(wake, &one), b = signals_on_stop(wake, &ten);
    assert_true(a >= 0 && b >= 0 && a != b);
    raise(SIGINT);
    assert_int_equal(woken, 11);
    signals_off(b);
    raise(SIGTERM);
    assert_int_equal(woken, 12);
    signals_off(a);
    signals_off(-1); /* no-op */
    raise(SIGTERM);
    assert_int_equal(woken, 12);
    signals_reset();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_codes),
        cmocka_unit_test(test_stop_actions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
