/*
 * test_worker.c - the connection state machine and the level's window, with
 * a fake engine (no server): statements that complete inside start(), that
 * wait on a pipe and then finish, that fail asking for a retry, a reconnect
 * or a stop, and that never answer. Asserted: counts and error codes, the
 * ROLLBACK before every retry, 1e6 synchronous completions on a small stack
 * (the machine must iterate, never recurse), a hung engine that cannot hold
 * a level past its deadline or past pool_stop(), and the window callback.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client/worker.h"

enum fake_mode { FAKE_SYNC, FAKE_PIPE, FAKE_HANG };

/* What the fake does, and what it saw. Error injection hits the workload's
 * SELECT (a registered statement), never BEGIN/COMMIT/ROLLBACK. */
static struct {
    enum fake_mode mode;
    enum db_errclass fail_cls;
    _Atomic int fail_left;
    _Atomic int connects, closes, rollbacks, violations, begins;
    _Atomic int last_timeout;               /* connect_timeout_s of the latest connect */
    int connect_delay_ms;                   /* each connect takes this long */
    _Atomic int in_connect, max_in_connect; /* connects under way at once */
    int connect_fail_after;                 /* > 0: connects after this many fail */
} F;

struct db_conn {
    int pfd[2];
    int expect; /* 1: the next statement must be ROLLBACK; 2: then BEGIN */
};

static struct db_conn *fake_connect(const struct db_target *t, struct db_error *err)
{
    (void)err;
    atomic_store(&F.last_timeout, t->connect_timeout_s);
    int now_in = atomic_fetch_add(&F.in_connect, 1) + 1, max = atomic_load(&F.max_in_connect);
    while (now_in > max && !atomic_compare_exchange_weak(&F.max_in_connect, &max, now_in))
        ;
    if (F.connect_delay_ms)
        nanosleep(&(struct timespec){0, F.connect_delay_ms * 1000000L}, NULL);
    atomic_fetch_sub(&F.in_connect, 1);
    if (F.connect_fail_after > 0 && atomic_load(&F.connects) >= F.connect_fail_after) {
        snprintf(err->msg, sizeof err->msg, "too many connections");
        err->cls = DB_ERR_FATAL;
        return NULL;
    }
    struct db_conn *c = calloc(1, sizeof *c);
    assert_non_null(c);
    assert_int_equal(pipe2(c->pfd, O_NONBLOCK | O_CLOEXEC), 0);
    atomic_fetch_add(&F.connects, 1);
    return c;
}

static void fake_close(struct db_conn *c)
{
    close(c->pfd[0]);
    close(c->pfd[1]);
    free(c);
    atomic_fetch_add(&F.closes, 1);
}

static int fake_fd(struct db_conn *c)
{
    return c->pfd[0];
}

static int fake_prepare(struct db_conn *c, int id, const char *sql, int np, struct db_error *e)
{
    (void)c, (void)id, (void)sql, (void)np, (void)e;
    return 0;
}

static enum db_status fake_start(struct db_conn *c, int id, const char *sql,
                                 const struct db_param *p, int np, struct db_error *err)
{
    (void)p, (void)np;
    int rollback = id < 0 && !strcmp(sql, "ROLLBACK");
    if (c->expect == 1 && !rollback)
        atomic_fetch_add(&F.violations, 1);
    if (c->expect == 2 && !(id < 0 && !strcmp(sql, "BEGIN")))
        atomic_fetch_add(&F.violations, 1);
    c->expect = c->expect == 1 ? 2 : 0;
    if (rollback)
        atomic_fetch_add(&F.rollbacks, 1);
    if (id < 0 && !strcmp(sql, "BEGIN"))
        atomic_fetch_add(&F.begins, 1);
    if (id >= 0 && atomic_load(&F.fail_left) > 0 && atomic_fetch_sub(&F.fail_left, 1) > 0) {
        err->cls = F.fail_cls;
        strcpy(err->code, F.fail_cls == DB_ERR_RETRY ? "40001" : "08006");
        strcpy(err->msg, "fake failure");
        c->expect = F.fail_cls == DB_ERR_RETRY ? 1 : 0;
        return DB_FAILED;
    }
    switch (F.mode) {
    case FAKE_SYNC:
        return DB_DONE;
    case FAKE_PIPE:
        assert_int_equal(write(c->pfd[1], "x", 1), 1);
        return DB_WAIT_READ;
    case FAKE_HANG:
    default:
        return DB_WAIT_READ;
    }
}

static enum db_status fake_cont(struct db_conn *c, struct db_error *err)
{
    (void)err;
    char b;
    if (F.mode == FAKE_HANG || read(c->pfd[0], &b, 1) != 1)
        return DB_WAIT_READ;
    return DB_DONE;
}

static const struct db_ops fake_ops = {
    .name = "fake",
    .connect = fake_connect,
    .close = fake_close,
    .fd = fake_fd,
    .prepare = fake_prepare,
    .start = fake_start,
    .cont = fake_cont,
};

static struct workload wl;
static const struct db_target target;

/* BEGIN, one point SELECT, COMMIT. */
static int setup_wl(void **state)
{
    (void)state;
    struct wl_config c = {
        .name = "oltp_read_only",
        .ops = &db_pgsql_ops,
        .tables = 1,
        .table_size = 1000,
        .range_size = 10,
        .point_selects = 1,
        .range_selects = 0,
        .random_points = 10,
        .number_of_ranges = 10,
        .mysql_storage_engine = "innodb",
    };
    assert_int_equal(rng_dist_init(&c.dist, "uniform", 12, 1, 75, 0.2, 0.8), 0);
    char err[256];
    if (workload_init(&wl, &c, err, sizeof err) != 0)
        fail_msg("workload_init: %s", err);
    return 0;
}

static int teardown_wl(void **state)
{
    (void)state;
    workload_free(&wl);
    return 0;
}

static struct worker_cfg cfg_for(enum fake_mode mode, int loops)
{
    memset(&F, 0, sizeof F);
    F.mode = mode;
    struct worker_cfg cfg = {
        .ops = &fake_ops,
        .targets = &target,
        .ntargets = 1,
        .wl = &wl,
        .seed = 1,
        .loops = loops,
        .reconnect_timeout = 5,
    };
    return cfg;
}

static struct pool *open_ok(const struct worker_cfg *cfg, int n)
{
    char err[256] = "";
    struct pool *p = pool_open(cfg, n, err, sizeof err);
    if (!p)
        fail_msg("pool_open: %s", err);
    return p;
}

/* A million transactions that finish inside start(), on a 256 KiB stack:
 * a machine that recursed per statement would overflow long before. */
static void test_sync_engine_iterates(void **state)
{
    (void)state;
    pthread_attr_t small, old;
    assert_int_equal(pthread_getattr_default_np(&old), 0);
    pthread_attr_init(&small);
#ifndef __SANITIZE_THREAD__ /* TSan refuses threads with a changed default */
    pthread_attr_setstacksize(&small, 256 * 1024);
    assert_int_equal(pthread_setattr_default_np(&small), 0);
#endif
    struct worker_cfg cfg = cfg_for(FAKE_SYNC, 1);
    cfg.events = 1000000;
    struct pool *p = open_ok(&cfg, 1);
    struct level_result r;
    assert_int_equal(pool_run(p, 1, &r), 0);
#ifndef __SANITIZE_THREAD__
    assert_int_equal(pthread_setattr_default_np(&old), 0);
#endif
    assert_int_equal(r.txns, 1000000);
    assert_int_equal(r.reads, 1000000);
    assert_int_equal(r.others, 2000000); /* BEGIN and COMMIT */
    assert_int_equal(r.unfinished, 0);
    assert_int_equal(r.errors, 0);
    /* every transaction's start and end come from the clock */
    assert_true(hist_min(r.lat) > 0);
    level_result_free(&r);
    pool_close(p);
}

/* Several connections of one loop on an engine that always answers inside
 * start(): each yields between transactions, so every one gets work. */
static void test_sync_engine_shares_the_loop(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_SYNC, 1);
    cfg.events = 100000;
    struct pool *p = open_ok(&cfg, 4);
    struct level_result r;
    assert_int_equal(pool_run(p, 4, &r), 0);
    assert_int_equal(r.txns, 100000);
    /* one connection doing everything: avg 25000, sd 43301 */
    assert_true(r.fair_events_sd < r.fair_events_avg / 2);
    level_result_free(&r);
    pool_close(p);
}

/* Replies through a socket: every connection works, the counts add up. */
static void test_pipe_engine_counts(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_PIPE, 2);
    cfg.events = 20000;
    struct pool *p = open_ok(&cfg, 8);
    struct level_result r;
    assert_int_equal(pool_run(p, 8, &r), 0);
    assert_int_equal(r.txns, 20000);
    assert_int_equal(r.loops, 2);
    /* statements of transactions cut off when the count was reached are
     * counted, the transactions themselves are not (finished off, so not
     * unfinished either) */
    assert_true(r.reads >= r.txns && r.reads <= r.txns + 8);
    assert_int_equal(r.unfinished, 0);
    assert_true(r.fair_events_avg > 0);
    assert_true(r.fair_events_sd < r.fair_events_avg);
    assert_false(r.disturbed);
    level_result_free(&r);
    pool_close(p);
}

/* A retryable error: counted with its code, ROLLBACK first, then the same
 * transaction again from BEGIN; the level still completes its count. */
static void test_retry_rolls_back_first(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_PIPE, 1);
    cfg.events = 1000;
    F.fail_cls = DB_ERR_RETRY;
    F.fail_left = 7;
    struct pool *p = open_ok(&cfg, 2);
    struct level_result r;
    assert_int_equal(pool_run(p, 2, &r), 0);
    assert_int_equal(r.txns, 1000);
    assert_int_equal(r.errors, 7);
    assert_int_equal(r.ncodes, 1);
    assert_string_equal(r.codes[0].code, "40001");
    assert_int_equal(r.codes[0].n, 7);
    assert_int_equal(atomic_load(&F.rollbacks), 7);
    assert_int_equal(atomic_load(&F.violations), 0);
    assert_int_equal(r.reconnects, 0);
    level_result_free(&r);
    pool_close(p);
}

/* The same with an engine that answers inside start(). */
static void test_retry_sync(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_SYNC, 1);
    cfg.events = 1000;
    F.fail_cls = DB_ERR_RETRY;
    F.fail_left = 3;
    struct pool *p = open_ok(&cfg, 1);
    struct level_result r;
    assert_int_equal(pool_run(p, 1, &r), 0);
    assert_int_equal(r.txns, 1000);
    assert_int_equal(r.errors, 3);
    assert_int_equal(atomic_load(&F.rollbacks), 3);
    assert_int_equal(atomic_load(&F.violations), 0);
    level_result_free(&r);
    pool_close(p);
}

/* A lost connection is closed, reconnected and counted; the level is
 * flagged as disturbed. */
static void test_reconnect(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_PIPE, 1);
    cfg.events = 500;
    F.fail_cls = DB_ERR_RECONNECT;
    F.fail_left = 1;
    struct pool *p = open_ok(&cfg, 2);
    struct level_result r;
    assert_int_equal(pool_run(p, 2, &r), 0);
    assert_int_equal(r.txns, 500);
    assert_int_equal(r.errors, 1);
    assert_string_equal(r.codes[0].code, "08006");
    assert_int_equal(r.lost, 1);
    assert_int_equal(r.reconnects, 1);
    assert_int_equal(atomic_load(&F.connects), 3);
    /* a reconnect blocks its loop: it must give up quickly, so a stop is
     * not held by a server that accepts but never answers */
    assert_int_equal(atomic_load(&F.last_timeout), WORKER_RECONNECT_TIMEOUT_S);
    assert_true(r.disturbed);
    assert_non_null(strstr(r.disturbed_why, "reconnect"));
    level_result_free(&r);
    pool_close(p);
}

/* A fatal error stops the run with the engine's message. */
static void test_fatal(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_SYNC, 1);
    cfg.events = 1000;
    F.fail_cls = DB_ERR_FATAL;
    F.fail_left = 1;
    struct pool *p = open_ok(&cfg, 1);
    struct level_result r;
    assert_int_equal(pool_run(p, 1, &r), -1);
    assert_non_null(strstr(r.fatal_msg, "fake failure"));
    assert_int_equal(r.errors, 1);
    level_result_free(&r);
    pool_close(p);
}

/* A server that never answers cannot hold a level past its deadline: the
 * replies missing at the end are given up, counted as unfinished, the level
 * is flagged, and the next level reconnects them before its window. */
static void test_hung_engine_deadline(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_HANG, 2);
    /* long enough for both loops to start their connections' first
     * transaction even on a loaded machine: only those are in flight */
    cfg.time_s = 0.6;
    struct pool *p = open_ok(&cfg, 4);
    struct level_result r;
    assert_int_equal(pool_run(p, 4, &r), 0);
    assert_int_equal(r.txns, 0);
    assert_int_equal(r.unfinished, 4);
    assert_true(r.disturbed);
    assert_non_null(strstr(r.disturbed_why, "unfinished"));
    level_result_free(&r);
    F.mode = FAKE_PIPE;
    F.connects = 4;
    assert_int_equal(pool_run(p, 4, &r), 0);
    /* reconnected before the window: the new level is clean */
    assert_true(r.txns > 0);
    assert_int_equal(atomic_load(&F.connects), 8);
    assert_int_equal(r.reconnects, 0);
    assert_int_equal(r.unfinished, 0);
    assert_false(r.disturbed);
    level_result_free(&r);
    pool_close(p);
}

static void *stop_later(void *arg)
{
    struct timespec ts = {0, 100000000};
    nanosleep(&ts, NULL);
    pool_stop(arg);
    return NULL;
}

/* pool_stop() ends a level whose server never answers, long before its
 * --time would (the grace runs from the stop, not from the deadline). */
static void test_hung_engine_stop(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_HANG, 1);
    cfg.time_s = 600;
    struct pool *p = open_ok(&cfg, 2);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, stop_later, p), 0);
    struct level_result r;
    assert_int_equal(pool_run(p, 2, &r), 1);
    pthread_join(th, NULL);
    assert_true(r.interrupted);
    assert_int_equal(r.unfinished, 2);
    assert_true(r.disturbed);
    level_result_free(&r);
    pool_close(p);
}

/* A stop asked between two levels (a signal just before pool_run) ends the
 * next level at once instead of being cleared by it. */
static void test_stop_before_run(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_PIPE, 1);
    cfg.time_s = 600;
    struct pool *p = open_ok(&cfg, 1);
    struct level_result r;
    pool_stop(p);
    assert_int_equal(pool_run(p, 1, &r), 1);
    assert_true(r.interrupted);
    level_result_free(&r);
    pool_close(p);
}

/* --events=N as sysbench: exactly N transactions begin and all N count,
 * however many connections run (none is run and left uncounted, which would
 * put statements at the server that the report does not show). */
static void test_events_exact(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_PIPE, 2);
    cfg.events = 100;
    struct pool *p = open_ok(&cfg, 8);
    struct level_result r;
    assert_int_equal(pool_run(p, 8, &r), 0);
    assert_int_equal(r.txns, 100);
    assert_int_equal(atomic_load(&F.begins), 100);
    level_result_free(&r);
    pool_close(p);
}

/* --events=N with a --time that is not reached (sysbench's default 10 s):
 * the rate is over the time the N transactions took, not over --time
 * (it printed "10.00 per sec." for 100 events done in a moment). */
static void test_events_before_time(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_PIPE, 2);
    cfg.events = 100;
    cfg.time_s = 600;
    struct pool *p = open_ok(&cfg, 4);
    struct level_result r;
    assert_int_equal(pool_run(p, 4, &r), 0);
    assert_int_equal(r.txns, 100);
    assert_true(r.time_s < 60); /* not the 600 s deadline */
    level_result_free(&r);
    pool_close(p);
}

struct edges {
    int calls, first, last;
};

static void on_window(int begin, void *arg)
{
    struct edges *e = arg;
    if (e->calls++ == 0)
        e->first = begin;
    e->last = begin;
}

/* The window callback: once at the start, once at the end, in that order,
 * also with a warmup before the window. */
static void test_window_callback(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_PIPE, 1);
    struct edges e = {0};
    cfg.time_s = 0.4; /* some transactions complete even on a loaded machine */
    cfg.warmup_s = 0.05;
    cfg.on_window = on_window;
    cfg.on_window_arg = &e;
    struct pool *p = open_ok(&cfg, 2);
    struct level_result r;
    assert_int_equal(pool_run(p, 2, &r), 0);
    assert_int_equal(e.calls, 2);
    assert_int_equal(e.first, 1);
    assert_int_equal(e.last, 0);
    assert_true(r.txns > 0);
    level_result_free(&r);
    pool_close(p);
}

/* --thread-init-timeout: connections that open too slowly fail the pool
 * with sysbench's message, before all of them were tried, and no connect
 * is given longer than what is left (at least libpq's 2 s minimum). Up to
 * 8 open at once, so 40 at 300 ms each need 1.5 s. */
static void test_init_timeout(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_SYNC, 1);
    cfg.init_timeout_s = 1;
    F.connect_delay_ms = 300;
    char err[256] = "";
    struct pool *p = pool_open(&cfg, 40, err, sizeof err);
    assert_null(p);
    assert_non_null(strstr(err, "failed to initialize within 1 seconds"));
    assert_true(atomic_load(&F.connects) < 40);
    assert_int_equal(atomic_load(&F.closes), atomic_load(&F.connects)); /* none leaked */
    int last = atomic_load(&F.last_timeout);
    assert_true(last >= 1 && last <= 2);
    /* no limit: all open */
    cfg = cfg_for(FAKE_SYNC, 1);
    F.connect_delay_ms = 1;
    p = open_ok(&cfg, 5);
    assert_int_equal(atomic_load(&F.connects), 5);
    pool_close(p);
}

/* A level's connections open several at a time, and a failure fails the
 * pool naming a connection, with every connection opened meanwhile closed. */
static void test_open_parallel(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_SYNC, 1);
    F.connect_delay_ms = 50;
    struct pool *p = open_ok(&cfg, 16);
    assert_int_equal(atomic_load(&F.connects), 16);
    assert_true(atomic_load(&F.max_in_connect) > 1);
    assert_true(atomic_load(&F.max_in_connect) <= 8);
    pool_close(p);
    cfg = cfg_for(FAKE_SYNC, 1);
    F.connect_delay_ms = 20;
    F.connect_fail_after = 10;
    char err[256] = "";
    p = pool_open(&cfg, 30, err, sizeof err);
    assert_null(p);
    assert_non_null(strstr(err, "too many connections"));
    int k = 0;
    assert_int_equal(sscanf(err, "connection %d of 30:", &k), 1);
    assert_true(k >= 1 && k <= 30);
    assert_int_equal(atomic_load(&F.closes), atomic_load(&F.connects));
}

/* before_window: what dbscale-mpi's barrier at the window's start does,
 * blocking while the loops keep running the warmup */
struct gate {
    int calls, seq, returned_at, window_at;
    uint64_t begins_at_return;
};

static void gate_wait(void *arg)
{
    struct gate *g = arg;
    g->calls++;
    /* block until many more transactions began: none of them may count */
    uint64_t b0 = atomic_load(&F.begins);
    while ((uint64_t)atomic_load(&F.begins) < b0 + 500)
        sched_yield();
    g->begins_at_return = atomic_load(&F.begins);
    g->returned_at = ++g->seq;
}

static void gate_window(int begin, void *arg)
{
    struct gate *g = arg;
    if (begin)
        g->window_at = ++g->seq;
}

static void gate_window_count(void *arg)
{
    ((struct gate *)arg)->calls++;
}

/* The window starts when before_window returns, not at the warmup's end
 * as fixed when the level began; what ran while it blocked is not counted. */
static void test_before_window_gate(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_PIPE, 1);
    struct gate g = {0};
    cfg.time_s = 0.3;
    cfg.warmup_s = 0.02;
    cfg.before_window = gate_wait;
    cfg.before_window_arg = &g;
    cfg.on_window = gate_window;
    cfg.on_window_arg = &g;
    struct pool *p = open_ok(&cfg, 2);
    struct level_result r;
    assert_int_equal(pool_run(p, 2, &r), 0);
    assert_int_equal(g.calls, 1);
    assert_true(g.window_at > g.returned_at);
    assert_true(r.txns > 0);
    /* counted transactions began after the gate opened (2 were in flight
     * then), none of the 500 that ran while it blocked */
    assert_true(r.txns <= (uint64_t)atomic_load(&F.begins) - g.begins_at_return + 2);
    level_result_free(&r);
    pool_close(p);
}

static void gate_sleep(void *arg)
{
    ((struct gate *)arg)->calls++;
    struct timespec ts = {0, 50 * 1000 * 1000}; /* the other ranks are late */
    nanosleep(&ts, NULL);
}

/* Without a warmup nothing may run before the gate opens: --events=N over
 * ranks must put exactly N transactions at the server, as in one process
 * (what ran while the barrier waited would be uncounted but executed). */
static void test_before_window_no_warmup_events(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_PIPE, 2);
    struct gate g = {0};
    cfg.events = 100;
    cfg.before_window = gate_sleep;
    cfg.before_window_arg = &g;
    struct pool *p = open_ok(&cfg, 4);
    struct level_result r;
    assert_int_equal(pool_run(p, 4, &r), 0);
    assert_int_equal(g.calls, 1);
    assert_int_equal(r.txns, 100);
    assert_int_equal(atomic_load(&F.begins), 100);
    level_result_free(&r);
    pool_close(p);
}

/* A level stopped before its window still calls before_window once: the
 * other ranks wait for this one there. */
static void test_before_window_on_stop(void **state)
{
    (void)state;
    struct worker_cfg cfg = cfg_for(FAKE_PIPE, 1);
    struct gate g = {0};
    cfg.time_s = 600;
    cfg.warmup_s = 600;
    cfg.before_window = gate_window_count;
    cfg.before_window_arg = &g;
    struct pool *p = open_ok(&cfg, 1);
    struct level_result r;
    pool_stop(p);
    assert_int_equal(pool_run(p, 1, &r), 1);
    assert_int_equal(g.calls, 1);
    level_result_free(&r);
    pool_close(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sync_engine_iterates),
        cmocka_unit_test(test_sync_engine_shares_the_loop),
        cmocka_unit_test(test_pipe_engine_counts),
        cmocka_unit_test(test_retry_rolls_back_first),
        cmocka_unit_test(test_retry_sync),
        cmocka_unit_test(test_reconnect),
        cmocka_unit_test(test_fatal),
        cmocka_unit_test(test_hung_engine_deadline),
        cmocka_unit_test(test_hung_engine_stop),
        cmocka_unit_test(test_stop_before_run),
        cmocka_unit_test(test_events_exact),
        cmocka_unit_test(test_events_before_time),
        cmocka_unit_test(test_window_callback),
        cmocka_unit_test(test_init_timeout),
        cmocka_unit_test(test_open_parallel),
        cmocka_unit_test(test_before_window_gate),
        cmocka_unit_test(test_before_window_on_stop),
        cmocka_unit_test(test_before_window_no_warmup_events),
    };
    return cmocka_run_group_tests(tests, setup_wl, teardown_wl);
}
