/*
 * test_window.c - the figures both kinds of run (built-in mixes and Lua
 * scripts) report through client/window.c and client/arrivals.c: fairness
 * is the mean and population standard deviation of each connection's events
 * and busy seconds; a checkpoint reports what came since the last one and
 * becomes the baseline the next checkpoint and the level's result subtract;
 * the Poisson stream is the same for the same seed and counts its queue on a
 * copy, without taking anything from it. And the questions both run-times'
 * connections ask the running window (client/window_state.h): what counts
 * under each end rule, --events' N, the ramp's hold and the stop.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "client/arrivals.h"
#include "client/window.h"
#include "client/window_state.h"

struct figs {
    uint64_t ev[3], busy[3];
};

static void read_figs(void *arg, int i, uint64_t *events, uint64_t *busy_ns)
{
    struct figs *f = arg;
    *events = f->ev[i];
    *busy_ns = f->busy[i];
}

static void test_fairness(void **state)
{
    (void)state;
    struct figs f = {{10, 20, 30}, {1000000000, 1000000000, 4000000000}};
    struct level_result r = {0};
    window_fairness(3, read_figs, &f, NULL, &r);
    assert_float_equal(r.fair_events_avg, 20, 1e-12);
    assert_float_equal(r.fair_events_sd, sqrt(200.0 / 3), 1e-12);
    assert_float_equal(r.fair_time_avg, 2, 1e-12);
    assert_float_equal(r.fair_time_sd, sqrt(2.0), 1e-12);
}

static void test_checkpoint_baseline(void **state)
{
    (void)state;
    struct rusage ru = {0};
    struct figs f = {{10, 20, 30}, {1, 2, 3}};
    struct window_ckpt *ck = window_ckpt_new(3, 1000, &ru);
    struct hist *cur = malloc(sizeof *cur);
    hist_init(cur);
    hist_record(cur, 5000);
    struct window_counts tot = {.txns = 60, .reads = 7, .errors = 1};
    struct level_result r = {0};
    window_checkpoint(ck, 2000001000, 1000, &tot, cur, &ru, read_figs, &f, &r);
    assert_int_equal(r.txns, 60);
    assert_int_equal(r.reads, 7);
    assert_float_equal(r.time_s, 2, 1e-12);
    assert_int_equal(hist_count(r.lat), 1);
    assert_int_equal(hist_min(r.lat), 5000); /* since the start: exact */
    free(r.lat);
    /* later: the level's figures less the checkpoint's */
    f.ev[0] = 15, f.ev[1] = 25, f.ev[2] = 35;
    hist_record(cur, 7000);
    struct level_result out = {.txns = 75, .reads = 9, .errors = 1, .time_s = 3};
    out.lat = malloc(sizeof *out.lat);
    hist_copy(out.lat, cur);
    window_since_ckpt_counts(ck, &out);
    window_since_ckpt_time(ck, 3000001000, &ru, &out);
    window_fairness(3, read_figs, &f, ck, &out);
    assert_int_equal(out.txns, 15);
    assert_int_equal(out.reads, 2);
    assert_int_equal(out.errors, 0);
    assert_int_equal(hist_count(out.lat), 1);
    assert_float_equal(out.time_s, 1, 1e-12);
    assert_float_equal(out.total_time_s, 3, 1e-12);
    assert_float_equal(out.fair_events_avg, 5, 1e-12);
    assert_float_equal(out.fair_events_sd, 0, 1e-12);
    free(out.lat);
    free(cur);
    window_ckpt_free(ck);
}

static void test_arrivals(void **state)
{
    (void)state;
    struct arrivals a, b;
    arrivals_init(&a);
    arrivals_init(&b);
    arrivals_start(&a, 1000, 42, 1000000000);
    arrivals_start(&b, 1000, 42, 1000000000);
    uint64_t last = 1000000000;
    for (int i = 0; i < 100; i++) {
        uint64_t t = arrivals_next(&a);
        assert_true(t >= last);
        assert_int_equal(t, arrivals_next(&b)); /* the same stream for the same seed */
        last = t;
    }
    /* ~1000/s: about 1000 due a second later, and counting takes none */
    uint64_t q = arrivals_queued(&a, last + 1000000000, 100000);
    assert_true(q > 800 && q < 1200);
    assert_int_equal(arrivals_queued(&a, last + 1000000000, 100000), q);
    assert_int_equal(arrivals_queued(&a, last + 1000000000, 10), 10);
    assert_int_equal(arrivals_next(&a), arrivals_next(&b));
    arrivals_destroy(&a);
    arrivals_destroy(&b);
}

/* A window from 100 to 200 ns. */
static void open_window(struct window_state *w, int64_t events, int tail)
{
    memset(w, 0, sizeof *w);
    w->events = events;
    w->tail = tail;
    atomic_store(&w->start, 100);
    atomic_store(&w->end, 200);
}

static void test_state_end_rules(void **state)
{
    (void)state;
    struct window_state w;
    struct window_conn c = {0};
    open_window(&w, 0, 0);                 /* the built-in mixes' rule */
    assert_false(window_done(&w, &c, 99)); /* the warmup's */
    assert_int_equal(c.warm, 1);
    assert_int_equal(atomic_load(&w.warm), 1);
    assert_true(window_done(&w, &c, 100));
    assert_true(window_done(&w, &c, 200));
    assert_false(window_done(&w, &c, 201));    /* finished off after the end */
    assert_int_equal(atomic_load(&w.warm), 1); /* once per connection */
    assert_false(window_ending(&w, 199));
    assert_true(window_ending(&w, 200));
    w.tail = 1; /* a script's: the event running at the end counts */
    assert_true(window_done(&w, &c, 201));
    assert_true(window_ending(&w, 200));
    atomic_store(&w.start, WINDOW_SHUT); /* not open yet: nothing counts */
    assert_false(window_counted(&w, 150));
}

static void test_state_events(void **state)
{
    (void)state;
    struct window_state w;
    struct window_conn c[4] = {{0}};
    open_window(&w, 2, 0);
    atomic_store(&w.end, 0);                    /* --events alone: open-ended */
    assert_true(window_reserve(&w, 50, &c[0])); /* the warmup's take none of the N */
    assert_int_equal(c[0].reserved, 0);
    assert_true(window_reserve(&w, 120, &c[1]));
    assert_true(window_reserve(&w, 120, &c[2]));
    assert_false(window_reserve(&w, 120, &c[3])); /* all N taken */
    assert_true(c[1].reserved && c[2].reserved && !c[3].reserved);
    window_unreserve(&w, &c[2]); /* a lost event gives its place back */
    assert_int_equal(c[2].reserved, 0);
    assert_true(window_reserve(&w, 130, &c[3]));
    assert_false(window_done(&w, &c[0], 140)); /* begun in the warmup */
    assert_true(window_done(&w, &c[1], 150));
    assert_false(window_ending(&w, 150));
    assert_true(window_done(&w, &c[3], 160)); /* the N-th ends the window there */
    assert_int_equal(window_end_now(&w), 160);
    assert_true(window_ending(&w, 160));
    uint64_t at = 0;
    assert_int_equal(window_begin(&w, &c[1], 161, &at), WINDOW_PARK);
}

static void test_state_hold_and_stop(void **state)
{
    (void)state;
    struct window_state w;
    struct window_conn c = {0}, warm = {.warm = 1};
    open_window(&w, 0, 0);
    atomic_store(&w.start, WINDOW_SHUT);
    atomic_store(&w.hold_from, 50);
    assert_false(window_holds(&w, &c, 60));    /* a cold connection runs on */
    assert_false(window_holds(&w, &warm, 40)); /* still the warmup */
    assert_true(window_holds(&w, &warm, 60));
    uint64_t at = 0;
    assert_int_equal(window_begin(&w, &warm, 60, &at), WINDOW_HOLD);
    assert_int_equal(at, 60 + WINDOW_RAMP_POLL_NS);
    assert_int_equal(window_begin(&w, &c, 60, &at), WINDOW_GO);
    assert_int_equal(at, 60);
    atomic_store(&w.start, 70); /* the window opened */
    assert_false(window_holds(&w, &warm, 80));
    assert_int_equal(window_begin(&w, &warm, 80, &at), WINDOW_GO);
    assert_false(window_ending(&w, 150));
    window_stop(&w);
    assert_true(window_ending(&w, 150));
    assert_true(atomic_load(&w.stop_at) > 0);
    assert_int_equal(window_begin(&w, &c, 150, &at), WINDOW_PARK);
}

/* --rate: the begin hands out the stream's next arrival; the arrival,
 * once due, takes --events' place and counts the connection in the
 * concurrency until it leaves. */
static void test_state_paced(void **state)
{
    (void)state;
    struct window_state w;
    struct window_conn c = {0}, d = {0};
    open_window(&w, 1, 0);
    w.paced = 1;
    arrivals_init(&w.arrivals);
    arrivals_start(&w.arrivals, 1000, 42, 100);
    uint64_t at = 0;
    assert_int_equal(window_begin(&w, &c, 110, &at), WINDOW_ARRIVAL);
    assert_true(at >= 100);
    assert_int_equal(window_arrived(&w, &c, 120, 120), WINDOW_GO);
    assert_true(c.reserved);
    assert_int_equal(atomic_load(&w.concurrency), 1);
    assert_int_equal(window_arrived(&w, &d, 130, 130), WINDOW_PARK); /* the one is taken */
    assert_int_equal(atomic_load(&w.concurrency), 1);
    window_leave(&w, &c);
    assert_int_equal(atomic_load(&w.concurrency), 0);
    arrivals_destroy(&w.arrivals);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fairness),     cmocka_unit_test(test_checkpoint_baseline),
        cmocka_unit_test(test_arrivals),     cmocka_unit_test(test_state_end_rules),
        cmocka_unit_test(test_state_events), cmocka_unit_test(test_state_hold_and_stop),
        cmocka_unit_test(test_state_paced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
