/*
 * test_sched_policy.c - --client-sched as one number (the fewest connections
 * of a SCHED_BATCH loop) and what a loop thread gets from it: auto follows
 * the engine, and pacing; batch is every loop of two or more; normal none.
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_from),
        cmocka_unit_test(test_apply_loop),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
