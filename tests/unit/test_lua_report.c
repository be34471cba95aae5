/*
 * test_lua_report.c - a script's report hooks (driver/lua/lreport.c),
 * without a server: a period reaches report_intermediate as sysbench's
 * counts (rate x length), latency in seconds, the queue fields present; the
 * end reaches report_cumulative in a fresh state with the totals,
 * threads_running 0 and latency_min/avg/max/sum; the last period, the one
 * that ends at --time, is reported as sysbench reports it; a hook's error is kept, naming its line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stats/hist.h"
#include "lua/lreport.h"

static char path[64];

static void write_script(const char *text)
{
    snprintf(path, sizeof path, "/tmp/dbscale-test-lreport-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static void base(struct lapi_script *s)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->command = "run";
    s->ops = &db_pgsql_ops;
    s->threads = 2;
}

static double num(lua_State *L, const char *name)
{
    lua_getglobal(L, name);
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

static const char hooks[] =
    "function event() end\n"
    "calls = 0\n"
    "function sysbench.hooks.report_intermediate(s)\n"
    "  calls = calls + 1\n"
    "  ev, rd, wr, ot, er, rc = s.events, s.reads, s.writes, s.other, s.errors, s.reconnects\n"
    "  ti, tt, th, pct = s.time_interval, s.time_total, s.threads_running, s.latency_pct\n"
    "  q = (s.queue_length ~= nil and s.concurrency ~= nil) and 1 or 0\n"
    "  nomin = s.latency_min == nil and 1 or 0\n"
    "end\n"
    "function sysbench.hooks.report_cumulative(s)\n"
    "  ccalls = (calls or 0) + 100\n"
    "  cev, crd, cth, cmin, cmax, csum = s.events, s.reads, s.threads_running,\n"
    "    s.latency_min, s.latency_max, s.latency_sum\n"
    "  cq = s.queue_length == nil and 1 or 0\n"
    "end\n";

static void test_interval_counts(void **st)
{
    (void)st;
    write_script(hooks);
    struct lapi_script s;
    base(&s);
    struct lreport r;
    char err[512];
    assert_int_equal(lreport_open(&r, &s, 10, err, sizeof err), 0);
    assert_non_null(r.L);
    assert_true(r.intermediate && r.cumulative);
    struct interval_stats is = {.t = 2,
                                .dt = 0.5,
                                .threads = 2,
                                .tps = 100,
                                .reads = 1400,
                                .writes = 400,
                                .others = 200,
                                .lat_ms = 3.5,
                                .errors = 2,
                                .reconnects = 0,
                                .queue_length = 7,
                                .concurrency = 2};
    lreport_interval(&is, &r);
    assert_false(r.failed);
    assert_int_equal((int)num(r.L, "calls"), 1);
    assert_int_equal((int)num(r.L, "ev"), 50); /* counts of the period */
    assert_int_equal((int)num(r.L, "rd"), 700);
    assert_int_equal((int)num(r.L, "wr"), 200);
    assert_int_equal((int)num(r.L, "ot"), 100);
    assert_int_equal((int)num(r.L, "er"), 1);
    assert_true(num(r.L, "ti") == 0.5 && num(r.L, "tt") == 2 && num(r.L, "th") == 2);
    assert_true(num(r.L, "pct") > 0.00349 && num(r.L, "pct") < 0.00351); /* seconds */
    assert_int_equal((int)num(r.L, "q"), 1);
    assert_int_equal((int)num(r.L, "nomin"), 1);
    /* the period that ends at --time reaches the hook too: sysbench calls
     * it twice for --time=2 --report-interval=1 */
    is.t = 10;
    lreport_interval(&is, &r);
    assert_int_equal((int)num(r.L, "calls"), 2);
    lreport_close(&r);
    unlink(path);
}

static void test_cumulative_totals(void **st)
{
    (void)st;
    write_script(hooks);
    struct lapi_script s;
    base(&s);
    struct lreport r;
    char err[512];
    assert_int_equal(lreport_open(&r, &s, 0, err, sizeof err), 0);
    struct interval_stats is = {.t = 1, .dt = 1, .threads = 2, .tps = 10};
    lreport_interval(&is, &r);
    struct level_result res = {.time_s = 2, .txns = 30, .reads = 420};
    struct hist *h = malloc(sizeof *h); /* buckets: not for the stack */
    assert_non_null(h);
    hist_init(h);
    hist_record(h, 1000000); /* 1 ms */
    hist_record(h, 3000000); /* 3 ms */
    res.lat = h;
    assert_int_equal(lreport_cumulative(&r, &res, 95), 0);
    /* a fresh state: the periods' globals are gone */
    assert_int_equal((int)num(r.L, "ccalls"), 100);
    assert_int_equal((int)num(r.L, "cev"), 30);
    assert_int_equal((int)num(r.L, "crd"), 420);
    assert_int_equal((int)num(r.L, "cth"), 0);
    assert_true(num(r.L, "cmin") > 0.0009 && num(r.L, "cmin") <= 0.0011);
    assert_true(num(r.L, "cmax") > 0.0029 && num(r.L, "cmax") <= 0.0032);
    assert_true(num(r.L, "csum") > 0.0039 && num(r.L, "csum") < 0.0042);
    assert_int_equal((int)num(r.L, "cq"), 1);
    lreport_close(&r);
    free(h);
    unlink(path);
}

static void test_no_hooks_and_errors(void **st)
{
    (void)st;
    write_script("function event() end\n");
    struct lapi_script s;
    base(&s);
    struct lreport r;
    char err[512];
    assert_int_equal(lreport_open(&r, &s, 0, err, sizeof err), 0);
    assert_null(r.L); /* the default reporters stay */
    unlink(path);
    write_script("function event() end\n"
                 "function sysbench.hooks.report_intermediate(s)\n"
                 "  error('bad hook')\n"
                 "end\n");
    base(&s);
    assert_int_equal(lreport_open(&r, &s, 0, err, sizeof err), 0);
    struct interval_stats is = {.t = 1, .dt = 1, .threads = 1};
    lreport_interval(&is, &r);
    assert_true(r.failed);
    assert_non_null(strstr(r.err, "report_intermediate"));
    assert_non_null(strstr(r.err, ":3: bad hook"));
    lreport_close(&r);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interval_counts),
        cmocka_unit_test(test_cumulative_totals),
        cmocka_unit_test(test_no_hooks_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
