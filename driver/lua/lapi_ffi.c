/*
 * lapi_ffi.c - the C symbols scripts call by name through LuaJIT's ffi for
 * counting and pacing (sysbench's sb_counter_inc, sb_rand_uniform_uint64,
 * sb_more_events, sb_event_start/stop; the prelude's dbscale_more and
 * dbscale_ev_start/stop), and the one thing they all need: which thread's
 * state is running on this thread now (lapi_enter, lapi_current).
 *
 * The one idea: sysbench declares these without a state argument, so the
 * running state's thread is a thread-local set whenever a state is about
 * to run, and every symbol acts for it alone. The rest of the API calls
 * down into this file (lapi_state.c enters a state, lapi_rand.c's ffi draws read
 * it); it calls none of them. Never prints.
 */
#include <stdint.h>

#include "lua/lapi.h"

/* The thread the running Lua state belongs to, for the ffi symbols, which
 * sysbench declares without a state argument. */
static _Thread_local struct lapi_thread *lapi_cur;

void lapi_enter(struct lapi_thread *t)
{
    lapi_cur = t;
}

struct lapi_thread *lapi_current(void)
{
    return lapi_cur;
}

__attribute__((visibility("default"))) void sb_counter_inc(int thread_id, int type)
{
    (void)thread_id; /* a state only ever counts for its own thread */
    if (lapi_cur && type >= 0 && type < SB_CNT_MAX)
        lapi_count(lapi_cur, type);
}

__attribute__((visibility("default"))) uint64_t sb_rand_uniform_uint64(void)
{
    return lapi_cur ? rng_next(&lapi_cur->rng) : 0;
}

/* thread_run's pacing, for the prelude to call through the ffi (as
 * lapi_rand.c's dbscale_rand): LuaJIT compiles an ffi call into the trace it
 * records, where calling a C function (lua_CFunction) ends the trace (a
 * stitch: out to the interpreter and back in). sysbench's own API is ffi
 * throughout for that reason, so an event's Lua code runs as machine code
 * between its statements; each connection's state has its own traces, and
 * at hundreds of connections every extra exit is memory that is no longer
 * in the cache. */
__attribute__((visibility("default"))) int dbscale_more(void)
{
    struct lapi_thread *t = lapi_cur;
    return t && t->more ? t->more(t) : 0;
}

__attribute__((visibility("default"))) void dbscale_ev_start(void)
{
    struct lapi_thread *t = lapi_cur;
    if (t && t->ev_start)
        t->ev_start(t);
}

__attribute__((visibility("default"))) void dbscale_ev_stop(void)
{
    struct lapi_thread *t = lapi_cur;
    if (t && t->ev_stop)
        t->ev_stop(t);
}

/* sysbench's own names for the pacing (lapi_sbdecl.h declares them), for
 * a script whose thread_run calls them as sysbench's does. The thread id
 * is the running state's: a state paces only its own connection. */
__attribute__((visibility("default"))) _Bool sb_more_events(int thread_id)
{
    (void)thread_id;
    return dbscale_more() != 0;
}

__attribute__((visibility("default"))) void sb_event_start(int thread_id)
{
    (void)thread_id;
    dbscale_ev_start();
}

__attribute__((visibility("default"))) void sb_event_stop(int thread_id)
{
    (void)thread_id;
    dbscale_ev_stop();
}
