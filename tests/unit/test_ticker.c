/*
 * test_ticker.c - when a window's reports fall due and what they cover
 * (client/ticker.c), the one schedule the built-in levels and the scripts
 * share: a period every interval up to the window's end and none past it,
 * its counts the difference since the last one over the seconds that
 * passed; the period the window's end reached reported at the close; a
 * checkpoint at or after the cut left to the final report; the first
 * period's baseline taken at the open or not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "client/ticker.h"

#define S  1000000000ull
#define T0 (100 * S)

/* A run whose counters the test sets, and what the ticker reported. */
struct run {
    uint64_t txns;
    int nper, nck;
    struct interval_stats per[8];
    double ck_t[8];
    uint64_t ck_txns[8];
};

static void sum(void *arg, struct window_counts *c, struct hist *h)
{
    struct run *r = arg;
    memset(c, 0, sizeof *c);
    c->txns = r->txns;
    hist_init(h);
}

static void figs(void *arg, int i, uint64_t *events, uint64_t *busy_ns)
{
    (void)arg, (void)i;
    *events = 0;
    *busy_ns = 0;
}

static void on_interval(const struct interval_stats *st, void *arg)
{
    struct run *r = arg;
    r->per[r->nper++] = *st;
}

static void on_checkpoint(double t, const struct level_result *res, void *arg)
{
    struct run *r = arg;
    r->ck_t[r->nck] = t;
    r->ck_txns[r->nck++] = res->txns;
}

static struct ticker_cfg cfg_of(struct run *r, double interval, const double *cks, int nck)
{
    return (struct ticker_cfg){.threads = 4,
                               .loops = 1,
                               .rep.interval_s = interval,
                               .rep.pct = 95,
                               .rep.on_interval = on_interval,
                               .rep.on_interval_arg = r,
                               .rep.checkpoints = cks,
                               .rep.ncheckpoints = nck,
                               .rep.on_checkpoint = on_checkpoint,
                               .rep.on_checkpoint_arg = r,
                               .sum = sum,
                               .sum_arg = r,
                               .conn = figs,
                               .conn_arg = r};
}

static void test_periods_to_the_end(void **state)
{
    (void)state;
    struct run r = {0};
    struct ticker k;
    struct rusage ru = {0};
    struct ticker_cfg c = cfg_of(&r, 1, NULL, 0);
    ticker_open(&k, &c, T0, &ru, 0);
    uint64_t end = T0 + 3 * S;
    assert_int_equal(ticker_tick(&k, T0 + S / 2, end, end), T0 + S);
    r.txns = 100;
    /* woken 0.2 s late: the rate is over the 1.2 s that passed */
    assert_int_equal(ticker_tick(&k, T0 + S + S / 5, end, end), T0 + 2 * S);
    assert_int_equal(r.nper, 1);
    assert_float_equal(r.per[0].t, 1, 1e-9);
    assert_float_equal(r.per[0].dt, 1.2, 1e-9);
    assert_float_equal(r.per[0].tps, 100 / 1.2, 1e-6);
    r.txns = 250;
    ticker_tick(&k, T0 + 2 * S, end, end);
    /* the period that ends with the window is reported, up to its end */
    r.txns = 300;
    assert_int_equal(ticker_tick(&k, T0 + 3 * S + S / 10, end, end), UINT64_MAX);
    assert_int_equal(r.nper, 3);
    assert_float_equal(r.per[2].t, 3, 1e-9);
    assert_float_equal(r.per[2].dt, 1, 1e-9);
    assert_float_equal(r.per[2].tps, 50, 1e-6);
    /* nothing past the end, and the close has nothing left to report */
    ticker_tick(&k, T0 + 5 * S, end, end);
    ticker_close(&k, end);
    assert_int_equal(r.nper, 3);
    ticker_free(&k);
}

static void test_close_reports_the_reached_period(void **state)
{
    (void)state;
    struct run r = {.txns = 7};
    struct ticker k;
    struct rusage ru = {0};
    struct ticker_cfg c = cfg_of(&r, 1, NULL, 0);
    ticker_open(&k, &c, T0, &ru, 1); /* a script's: the counts so far are the baseline */
    r.txns = 47;
    /* the events ended at 1.5 s: the first period ended inside the window */
    ticker_close(&k, T0 + S + S / 2);
    assert_int_equal(r.nper, 1);
    assert_float_equal(r.per[0].t, 1, 1e-9);
    assert_float_equal(r.per[0].dt, 1.5, 1e-9);
    assert_float_equal(r.per[0].tps, 40 / 1.5, 1e-6);
    ticker_free(&k);
    /* ended before the first period's end: no period */
    struct run r2 = {0};
    c = cfg_of(&r2, 1, NULL, 0);
    ticker_open(&k, &c, T0, &ru, 0);
    ticker_close(&k, T0 + S / 2);
    assert_int_equal(r2.nper, 0);
    ticker_free(&k);
}

static void test_checkpoints_and_cut(void **state)
{
    (void)state;
    struct run r = {0};
    struct ticker k;
    struct rusage ru = {0};
    static const double cks[] = {1, 2, 3};
    struct ticker_cfg c = cfg_of(&r, 0, cks, 3);
    ticker_open(&k, &c, T0, &ru, 0);
    uint64_t cut = T0 + 3 * S;
    r.txns = 10;
    assert_int_equal(ticker_tick(&k, T0 + S, 0, cut), T0 + 2 * S);
    r.txns = 25;
    ticker_tick(&k, T0 + 2 * S, 0, cut);
    /* the point at --time is the final report's */
    r.txns = 40;
    assert_int_equal(ticker_tick(&k, T0 + 3 * S, 0, cut), UINT64_MAX);
    assert_int_equal(r.nck, 2);
    assert_float_equal(r.ck_t[1], 2, 1e-12);
    assert_int_equal(r.ck_txns[0], 10);
    assert_int_equal(r.ck_txns[1], 15); /* since the first: the baseline moved */
    assert_int_equal(k.ck->next, 3);
    ticker_free(&k);
    assert_null(k.ck);
}

static void test_no_zero_step(void **state)
{
    (void)state;
    struct run r = {0};
    struct ticker k;
    struct rusage ru = {0};
    struct ticker_cfg c = cfg_of(&r, 1e-12, NULL, 0); /* a step of 0 ns would never end */
    ticker_open(&k, &c, T0, &ru, 0);
    assert_int_equal(ticker_tick(&k, T0 + S, 0, 0), UINT64_MAX);
    assert_int_equal(r.nper, 0);
    ticker_free(&k);
}

static void test_never_opened(void **state)
{
    (void)state;
    struct ticker k;
    memset(&k, 0, sizeof k);
    assert_int_equal(ticker_tick(&k, T0, 0, 0), UINT64_MAX);
    ticker_close(&k, T0);
    ticker_free(&k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_periods_to_the_end),
        cmocka_unit_test(test_close_reports_the_reached_period),
        cmocka_unit_test(test_checkpoints_and_cut),
        cmocka_unit_test(test_no_zero_step),
        cmocka_unit_test(test_never_opened),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
