/*
 * lapi.h - sysbench 1.0.20's Lua API in one Lua state: sysbench.opt,
 * sysbench.cmdline, sysbench.rand, sysbench.sql (driver, connection,
 * statement, parameter, result set), the hooks table and the ffi symbols
 * scripts declare or call (sb_counter_inc, sb_rand_*; lapi_sbdecl.h).
 *
 * One state per connection thread (scripts keep per-thread globals such as
 * con and stmt). The state's thread owns a struct lapi_thread: its random
 * generator, its counters and the run's pacing callbacks.
 */
#ifndef DBSCALE_LAPI_H
#define DBSCALE_LAPI_H

#include <lua.h>
#include <stddef.h>
#include <stdint.h>

#include "engines/db.h"
#include "core/options.h"
#include "client/rng.h"

/* sysbench's sb_counter_type, in its order */
enum {
    SB_CNT_OTHER,
    SB_CNT_READ,
    SB_CNT_WRITE,
    SB_CNT_TRX,
    SB_CNT_ERROR,
    SB_CNT_RECONNECT,
    SB_CNT_MAX
};

struct lerrors;

/* What every state of one script shares. */
struct lapi_script {
    const char *path;    /* as given; chunk names and messages use it */
    const char *command; /* "run", "prepare", ...; NULL while reading options */
    int argc;            /* sysbench.cmdline.argv */
    char **argv;
    const struct opts *o;     /* NULL while reading options */
    const struct db_ops *ops; /* its connections' engine, on its row path */
    const struct db_target *targets;
    int ntargets;
    int threads;
    const struct rng_dist *dist; /* --rand-type */
    struct rng_dist kinds[5];    /* uniform, gaussian, special, pareto, zipfian */
    uint64_t seed;
    const char *lua_path;   /* --lua-path (lfind.h), or NULL */
    struct lerrors *errors; /* ignored errors by code (lerrors.h), or NULL */
};

/* A statement in flight on a connection of run's event loops (lloop.c):
 * con:query and stmt:execute start it here and call the thread's wait,
 * which runs the loop's other connections until the loop has stepped the
 * statement to its reply. */
/* want: between events, thread_run asks for the next; the loop answers
 * in go (1 begin it, 0 no more) once the window has decided (a --rate
 * arrival or the ramp may make it wait first) */
#define LAPI_WAIT_BEGIN 3

struct lapi_async {
    struct db_conn *c; /* the connection it runs on */
    void *owner;       /* lapi_sql.c's object for it, whose result set the reply fills */
    struct db_result res;
    struct db_error e;
    int want;  /* DB_WAIT_READ / _WRITE: in flight; LAPI_WAIT_BEGIN; else DB_DONE */
    int rc;    /* 0 / -1 once done */
    int go;    /* LAPI_WAIT_BEGIN's answer */
    int abort; /* the loop gave the wait up (the run ended without its reply) */
};

struct lapi_thread {
    int tid;
    const struct lapi_script *s;
    struct rng rng;
    uint32_t unique_n;
    uint64_t cnt[SB_CNT_MAX];
    /* thread_run's pacing (set by the runner; NULL = no run). more: 1
     * begin the next event, 0 no more (it may wait inside, for the loop) */
    int (*more)(struct lapi_thread *t);
    void (*ev_start)(struct lapi_thread *t);
    void (*ev_stop)(struct lapi_thread *t);
    void *run;
    /* run's loops: database calls start the statement in aio and call wait
     * (NULL = they block) */
    struct lapi_async *aio;
    void (*wait)(struct lapi_thread *t);
    /* the latest database error: C.last_error's words, and the code an
     * ignored one is counted as */
    struct db_error last_err;
    /* one of the state's connections is about to close (its socket still
     * open): the runner's loop stops watching it; NULL = nothing to do */
    void (*on_close)(struct lapi_thread *t, const struct db_conn *c);
    /* an error the script ignored (restarting the event), by its code;
     * NULL = only counted */
    void (*on_ignored)(struct lapi_thread *t, const char *code);
    /* a statement found its connection lost (the script reconnects);
     * NULL = not counted */
    void (*on_lost)(struct lapi_thread *t);
};

/* Reset t for thread tid of s, its generator seeded as worker.c seeds
 * connection tid (stream tid + 1), so a script draws the built-in mix's
 * numbers for the same --rand-seed. */
void lapi_thread_seed(struct lapi_thread *t, const struct lapi_script *s, int tid);
/* One more of counter k. The thread's own counters are read by the
 * --report-interval thread while it runs: relaxed atomic load and store (a
 * single writer), so no locked instruction on the hot path. */
static inline void lapi_count(struct lapi_thread *t, int k)
{
    __atomic_store_n(&t->cnt[k], __atomic_load_n(&t->cnt[k], __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
}
static inline uint64_t lapi_counter(const struct lapi_thread *t, int k)
{
    return __atomic_load_n(&t->cnt[k], __ATOMIC_RELAXED);
}

/* The thread of a C function of the prelude's primitives (its first
 * upvalue). */
static inline struct lapi_thread *lapi_self(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

/* The state about to run belongs to t (the ffi symbols count for it): for
 * a loop that switches among many states on one thread (lapi_ffi.c). */
void lapi_enter(struct lapi_thread *t);
/* The thread whose state runs on this thread now (NULL before any). */
struct lapi_thread *lapi_current(void);
/* Push the sysbench.rand table for thread t (lapi_rand.c). */
void lapi_push_rand(lua_State *L, struct lapi_thread *t);
/* Push the sysbench table for thread t (lapi_table.c); the prelude adds
 * the rest of the API to it. */
void lapi_push_sysbench(lua_State *L, struct lapi_thread *t);

/* A new state with the API installed and the script loaded and run (its
 * top level). NULL with err ("path:line: message") on failure. The caller
 * closes it with lua_close(). */
lua_State *lapi_open(struct lapi_thread *t, char *err, size_t errlen);
/* Call global fn (if it exists) with the thread id when pass_tid; 0, 1 when
 * there is no such function, -1 with err. */
int lapi_call(lua_State *L, const char *fn, int pass_tid, char *err, size_t errlen);
/* Call the function at the top of the stack with no arguments. 0 or -1. */
int lapi_pcall(lua_State *L, int nargs, char *err, size_t errlen);

#endif
