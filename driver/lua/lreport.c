/*
 * lreport.c - sysbench's report hooks for a script: the figures dbscale
 * measures, in the stat table sysbench 1.0.20 hands its hooks.
 *
 * The one idea: sysbench's stat is counts, not rates. A period carries the
 * events, reads, writes, other, errors and reconnects of that period only
 * (rate x length, which is how lscript's ticker computed the rate), plus
 * time_interval, time_total, threads_running, latency_pct (seconds),
 * queue_length and concurrency; the cumulative stat carries the run's
 * totals, threads_running 0 and latency_min/avg/max/sum (seconds) in place
 * of the queue. The hooks run in a state of their own, opened once before
 * the run, used by one thread at a time (the ticker, then the caller).
 * Never prints: a hook's error is kept for the verb.
 */
#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "stats/hist.h"
#include "lua/lreport.h"

static int has_hook(lua_State *L, const char *name)
{
    lua_getglobal(L, "sysbench");
    lua_getfield(L, -1, "hooks");
    lua_getfield(L, -1, name);
    int is = lua_isfunction(L, -1);
    lua_pop(L, 3);
    return is;
}

int lreport_open(struct lreport *r, const struct lapi_script *s, double time_s, char *err,
                 size_t errlen)
{
    memset(r, 0, sizeof *r);
    r->time_s = time_s;
    /* sysbench's reporting thread's state has no sysbench.tid of a worker:
     * the run's thread count is the first free one */
    lapi_thread_seed(&r->t, s, s->threads);
    lua_State *L = lapi_open(&r->t, err, errlen);
    if (!L)
        return -1;
    r->intermediate = has_hook(L, "report_intermediate");
    r->cumulative = has_hook(L, "report_cumulative");
    if (!r->intermediate && !r->cumulative) {
        lua_close(L);
        return 0;
    }
    r->L = L;
    return 0;
}

static void set_num(lua_State *L, const char *k, double v)
{
    lua_pushnumber(L, v);
    lua_setfield(L, -2, k);
}

static void call_hook(struct lreport *r, const char *name)
{
    lua_State *L = r->L;
    lua_getglobal(L, "sysbench");
    lua_getfield(L, -1, "hooks");
    lua_getfield(L, -1, name);
    lua_replace(L, -3);
    lua_pop(L, 1);     /* hooks */
    lua_insert(L, -2); /* under the stat */
    char e[sizeof r->err];
    if (lapi_pcall(L, 1, e, sizeof e) < 0 && !r->failed) {
        r->failed = 1;
        snprintf(r->err, sizeof r->err, "`%s' function failed: %s", name, e);
    }
    lua_settop(L, 0);
}

/* a period's count from its rate (the ticker divided the count by dt) */
static double count_of(double rate, double dt)
{
    return floor(rate * dt + 0.5);
}

void lreport_interval(const struct interval_stats *st, void *arg)
{
    struct lreport *r = arg;
    if (!r->L || !r->intermediate)
        return;
    lua_State *L = r->L;
    lua_createtable(L, 0, 12);
    set_num(L, "time_interval", st->dt);
    set_num(L, "time_total", st->t);
    set_num(L, "threads_running", st->threads);
    set_num(L, "events", count_of(st->tps, st->dt));
    set_num(L, "reads", count_of(st->reads, st->dt));
    set_num(L, "writes", count_of(st->writes, st->dt));
    set_num(L, "other", count_of(st->others, st->dt));
    set_num(L, "errors", count_of(st->errors, st->dt));
    set_num(L, "reconnects", count_of(st->reconnects, st->dt));
    set_num(L, "latency_pct", st->lat_ms / 1e3);
    set_num(L, "queue_length", (double)st->queue_length);
    set_num(L, "concurrency", (double)st->concurrency);
    call_hook(r, "report_intermediate");
}

int lreport_cumulative(struct lreport *r, const struct level_result *res, double pct)
{
    if (!r->cumulative)
        return 0;
    /* a fresh state, as sysbench reports the end from another thread's
     * state than the periods': report_json there opens an array of its own */
    lreport_close(r);
    const struct lapi_script *s = r->t.s;
    int failed = r->failed;
    char keep[sizeof r->err];
    memcpy(keep, r->err, sizeof keep);
    if (lreport_open(r, s, r->time_s, r->err, sizeof r->err) < 0) {
        r->failed = 1;
        return -1;
    }
    if (failed) {
        r->failed = failed;
        memcpy(r->err, keep, sizeof keep);
    }
    if (!r->L)
        return 0;
    lua_State *L = r->L;
    uint64_t n = res->lat ? hist_count(res->lat) : 0;
    double avg = n ? hist_mean(res->lat) / 1e9 : 0;
    lua_createtable(L, 0, 14);
    set_num(L, "time_interval", res->time_s);
    set_num(L, "time_total", res->time_s);
    set_num(L, "threads_running", 0); /* as sysbench's: every thread has ended */
    set_num(L, "events", (double)res->txns);
    set_num(L, "reads", (double)res->reads);
    set_num(L, "writes", (double)res->writes);
    set_num(L, "other", (double)res->others);
    set_num(L, "errors", (double)res->errors);
    set_num(L, "reconnects", (double)res->reconnects);
    set_num(L, "latency_pct", n ? (double)hist_percentile(res->lat, pct) / 1e9 : 0);
    set_num(L, "latency_min", n ? (double)hist_min(res->lat) / 1e9 : 0);
    set_num(L, "latency_avg", avg);
    set_num(L, "latency_max", n ? (double)hist_max(res->lat) / 1e9 : 0);
    set_num(L, "latency_sum", avg * (double)n);
    int was = r->failed;
    call_hook(r, "report_cumulative");
    return r->failed && !was ? -1 : 0;
}

void lreport_close(struct lreport *r)
{
    if (r->L)
        lua_close(r->L);
    r->L = NULL;
}
