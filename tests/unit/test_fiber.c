/*
 * test_fiber.c - fibers as lloop.c uses them: two fibers and the thread's
 * own stack switch among each other in a set order, each fiber's locals and
 * callee-saved registers survive its absences, a fiber's stack holds deep
 * calls, and a floating-point rounding mode set on one stack stays there.
 */
#include <fenv.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "core/fiber.h"

static struct fiber self, fa, fb;
static char trail[64];
static int ntrail;

static void mark(char c)
{
    if (ntrail < (int)sizeof trail - 1)
        trail[ntrail++] = c;
}

/* a runs, lets b run, runs again: its locals must be as it left them */
static void run_a(void *arg)
{
    volatile uint64_t keep = (uint64_t)(uintptr_t)arg * 3 + 1;
    double x = 1.5;
    mark('a');
    fiber_switch(&fa, &fb);
    mark(keep == 43 && x == 1.5 ? 'A' : '!');
    fiber_switch(&fa, &self);
    for (;;)
        fiber_switch(&fa, &self);
}

static void run_b(void *arg)
{
    (void)arg;
    mark('b');
    fiber_switch(&fb, &fa);
    for (;;)
        fiber_switch(&fb, &self);
}

static void test_order_and_locals(void **state)
{
    (void)state;
    ntrail = 0;
    memset(trail, 0, sizeof trail);
    fiber_self(&self);
    assert_int_equal(fiber_create(&fa, 64 * 1024, run_a, (void *)(uintptr_t)14), 0);
    assert_int_equal(fiber_create(&fb, 64 * 1024, run_b, NULL), 0);
    volatile int mine = 7;
    fiber_switch(&self, &fa); /* a, b, A, back here */
    mark('m');
    assert_int_equal(mine, 7);
    assert_string_equal(trail, "abAm");
    fiber_destroy(&fa);
    fiber_destroy(&fb);
}

/* 200 frames of about 1 KB each: deeper than the thread's own code goes */
static int deep(int n)
{
    volatile char buf[1000];
    memset((char *)buf, n, sizeof buf);
    return n == 0 ? buf[0] : deep(n - 1) + (buf[999] == (char)n);
}

static int deep_result;

static void run_deep(void *arg)
{
    (void)arg;
    deep_result = deep(200);
    for (;;)
        fiber_switch(&fa, &self);
}

static void test_deep_stack(void **state)
{
    (void)state;
    fiber_self(&self);
    assert_int_equal(fiber_create(&fa, 1024 * 1024, run_deep, NULL), 0);
    fiber_switch(&self, &fa);
    assert_int_equal(deep_result, 200);
    fiber_destroy(&fa);
}

/* the rounding mode is part of what a switch keeps per stack */
static void run_round(void *arg)
{
    (void)arg;
    fesetround(FE_UPWARD);
    for (;;) {
        fiber_switch(&fa, &self);
        mark(fegetround() == FE_UPWARD ? 'u' : '!');
    }
}

static void test_fp_mode(void **state)
{
    (void)state;
    ntrail = 0;
    memset(trail, 0, sizeof trail);
    fiber_self(&self);
    fesetround(FE_TONEAREST);
    assert_int_equal(fiber_create(&fa, 64 * 1024, run_round, NULL), 0);
    fiber_switch(&self, &fa);
    assert_int_equal(fegetround(), FE_TONEAREST);
    fiber_switch(&self, &fa);
    assert_int_equal(fegetround(), FE_TONEAREST);
    assert_string_equal(trail, "u");
    fiber_destroy(&fa);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_order_and_locals),
        cmocka_unit_test(test_deep_stack),
        cmocka_unit_test(test_fp_mode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
