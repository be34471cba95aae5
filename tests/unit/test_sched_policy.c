/*
 * test_sched_policy.c - --client-sched as one number (the fewest connections
 * of a SCHED_BATCH loop) and what a loop thread gets from it: auto follows
 * the engine, and pacing; batch is every loop of two or more; normal none.
 * And the mapping of connections to loop threads that the client bias
 * benchmark chose (docs/performance.md, "How connections map to threads"):
 * per engine and connection count on 2 client CPUs, how many loops, how
 * many connections each, and which policy each runs. And how long a loop
 * waits: with no timeout when nothing is due within its tick.
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "client/evloop.h"
#include "engines/db.h"
#include "core/sched_policy.h"

static void test_batch_from(void **state)
{
    (void)state;
    assert_int_equal(sched_policy_batch_from("auto", 3, 0), 3);
    assert_int_equal(sched_policy_batch_from("auto", 3, 1), SCHED_BATCH_NEVER);
    assert_int_equal(sched_policy_batch_from("batch", 3, 0), 2);
    assert_int_equal(sched_policy_batch_from("batch", 3, 1), 2); /* asked for: paced too */
    assert_int_equal(sched_policy_batch_from("normal", 3, 0), SCHED_BATCH_NEVER);
    assert_int_equal(sched_policy_batch_from("fifo", 3, 0), -1);
    assert_int_equal(sched_policy_batch_from(NULL, 3, 0), -1);
    /* MariaDB's server threads sleep between statements under a batch loop
     * of 2 (sched_policy.h); PostgreSQL's backends do under any client */
    assert_int_equal(db_mysql_ops.batch_min_conns, 3);
    assert_int_equal(db_pgsql_ops.batch_min_conns, 2);
    assert_int_equal(db_dry_mysql_ops()->batch_min_conns, 3);
}

struct probe {
    int from, n, policy;
};

static void *apply(void *arg)
{
    struct probe *p = arg;
    p->policy = sched_policy_apply_loop(p->from, p->n) == 0 ? sched_getscheduler(0) : -1;
    return NULL;
}

/* each on a thread of its own: the policy is the calling thread's */
static int policy_of(int from, int n)
{
    struct probe p = {from, n, -2};
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, apply, &p), 0);
    pthread_join(t, NULL);
    return p.policy;
}

static void test_apply_loop(void **state)
{
    (void)state;
    assert_int_equal(policy_of(3, 2), SCHED_OTHER);
    assert_int_equal(policy_of(3, 3), SCHED_BATCH);
    assert_int_equal(policy_of(2, 1), SCHED_OTHER);
    assert_int_equal(policy_of(2, 64), SCHED_BATCH);
    assert_int_equal(policy_of(SCHED_BATCH_NEVER, 1024), SCHED_OTHER);
    assert_int_equal(sched_getscheduler(0), SCHED_OTHER); /* the caller's own is untouched */
}

/* The default mapping, by engine and count, on 2 client CPUs: one loop per
 * CPU (never more than connections) for both engines at every count: a
 * thread per connection (--client-loops=1024) measured no better at any
 * point of the matrix (MariaDB: lower TPS at 4-1024, more client CPU; PostgreSQL
 * the same, and higher TPS at 1024 only by starving most connections).
 * The loops of MariaDB's 4 connections (2 each) keep the normal policy, its
 * 16 and more (8 and more each) run as SCHED_BATCH; PostgreSQL's from 2
 * each. --client-loops still overrides the count. */
static void test_mapping(void **state)
{
    (void)state;
    static const int conns[] = {1, 4, 16, 64, 256, 1024};
    static const struct {
        const struct db_ops *ops;
        int loops[6], per_loop[6], batch[6];
    } want[] = {
        {&db_mysql_ops, {1, 2, 2, 2, 2, 2}, {1, 2, 8, 32, 128, 512}, {0, 0, 1, 1, 1, 1}},
        {&db_pgsql_ops, {1, 2, 2, 2, 2, 2}, {1, 2, 8, 32, 128, 512}, {0, 1, 1, 1, 1, 1}},
    };
    for (size_t e = 0; e < sizeof want / sizeof want[0]; e++)
        for (int i = 0; i < 6; i++) {
            int nl = evloop_count(0, 2, conns[i]);
            int from = sched_policy_batch_from("auto", want[e].ops->batch_min_conns, 0);
            assert_int_equal(nl, want[e].loops[i]);
            assert_int_equal(conns[i] / nl, want[e].per_loop[i]);
            assert_int_equal(conns[i] / nl >= from, want[e].batch[i]);
            assert_int_equal(policy_of(from, conns[i] / nl),
                             want[e].batch[i] ? SCHED_BATCH : SCHED_OTHER);
        }
    /* --client-loops overrides: a thread per connection when asked */
    assert_int_equal(evloop_count(1024, 2, 16), 16);
    assert_int_equal(evloop_count(4, 2, 16), 4);
    assert_int_equal(evloop_count(0, 0, 1), 1); /* no CPU count: at least one */
}

/* evloop_wait_ns: with a tick, no timeout when nothing is due within it
 * (a far timer of the loop's own, a reconnect back-off of 200 ms, is waited
 * for a tick at a time, then exactly); without one, a tick at most; what
 * is due within a tick, exactly; what is due, not at all. */
static void test_wait_ns(void **state)
{
    (void)state;
    const uint64_t ms = 1000000ull, now = 1000 * ms, none = UINT64_MAX;
    assert_true(evloop_wait_ns(now, now + 4000 * ms, 1) == EVLOOP_FOREVER);
    assert_true(evloop_wait_ns(now, none, 1) == EVLOOP_FOREVER);
    assert_true(evloop_wait_ns(now, now + 200 * ms, 1) == EVLOOP_FOREVER);
    assert_true(evloop_wait_ns(now + 160 * ms, now + 200 * ms, 1) == 40 * ms);
    assert_true(evloop_wait_ns(now, now + 4000 * ms, 0) == EVLOOP_TICK_NS);
    assert_true(evloop_wait_ns(now, none, 0) == EVLOOP_TICK_NS);
    assert_true(evloop_wait_ns(now, now + EVLOOP_TICK_NS, 1) == EVLOOP_TICK_NS);
    assert_true(evloop_wait_ns(now, now + 3 * ms, 1) == 3 * ms);
    assert_true(evloop_wait_ns(now, now + 3 * ms, 0) == 3 * ms);
    assert_true(evloop_wait_ns(now, now, 1) == 0);
    assert_true(evloop_wait_ns(now, now - ms, 1) == 0);
}

/* Ticks for the default mapping (a loop a CPU) and a few loops a CPU;
 * timed waits for a thread per connection at many connections. */
static void test_ticks(void **state)
{
    (void)state;
    assert_true(evloop_ticks(evloop_count(0, 2, 1), 2));
    assert_true(evloop_ticks(evloop_count(0, 2, 1024), 2));
    assert_true(evloop_ticks(evloop_count(0, 0, 1024), 0));
    assert_true(evloop_ticks(8, 2));
    assert_false(evloop_ticks(9, 2));
    assert_false(evloop_ticks(evloop_count(1024, 2, 256), 2));
    assert_true(evloop_ticks(1, 0)); /* no CPU count: the online ones, at least one */
}

/* EVLOOP_FOREVER waits for the event (a 5 ms timerfd, like a loop's tick)
 * rather than return at once with nothing; 0 returns with nothing. */
static void test_wait_forever(void **state)
{
    (void)state;
    int ep = epoll_create1(0), tf = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
    assert_true(ep >= 0 && tf >= 0);
    struct itimerspec its = {.it_value = {0, 5000000}};
    struct epoll_event ev = {.events = EPOLLIN}, evs[4];
    assert_int_equal(epoll_ctl(ep, EPOLL_CTL_ADD, tf, &ev), 0);
    assert_int_equal(evloop_wait(ep, evs, 4, 0), 0);
    assert_int_equal(timerfd_settime(tf, 0, &its, NULL), 0);
    assert_int_equal(evloop_wait(ep, evs, 4, EVLOOP_FOREVER), 1);
    close(tf);
    close(ep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_from),   cmocka_unit_test(test_apply_loop),
        cmocka_unit_test(test_mapping),      cmocka_unit_test(test_wait_ns),
        cmocka_unit_test(test_wait_forever), cmocka_unit_test(test_ticks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
