/*
 * lwatch.c - the scripted run's watchdog: a thread beside the loops, so a
 * script that never gives its loop back cannot hold dbscale past --time, a
 * SIGINT or a SIGTERM, nor eat the machine's memory.
 *
 * The one idea: Lua code is given what a statement's reply is given. A
 * loop that is inside a connection's Lua code and has not switched back to
 * the loop for LLOOP_GRACE_NS after the run ended (its --time, a stop, a
 * failure; for thread_done, only a stop) has an event (or init, or done)
 * that does not return: a loop with no database call in it, or a blocking
 * call. The watchdog gives it up as the loops give up a missing reply: a
 * debug hook on its state ends interpreted code at once (counted
 * unfinished, not an error). LuaJIT's compiled code never calls hooks, so a
 * loop still stuck LWATCH_HOOK_NS later is abandoned: the run ends with an
 * error naming the script, the function and its line, and the stuck thread
 * is left running for the process's exit (nothing it uses is freed). Over
 * the memory limit (half the machine's, or DBSCALE_LUA_MEM_MB) the run is
 * stopped at once and the same follows. It reads the loops' shared state
 * (lloop.h) and the run's window (the pool's) itself, and calls nothing of
 * lloop.c, whose statement source asks it lwatch_abandoned. Never prints.
 */
#include "lua/lwatch.h"

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/procfs.h"
#include "core/util.h"

/* After the hook, how long until the run is abandoned. */
#define LWATCH_HOOK_NS 1000000000ull

static void watch_hook(lua_State *L, lua_Debug *ar)
{
    (void)ar;
    lua_sethook(L, NULL, 0, 0);
    luaL_where(L, 0);
    lua_pushfstring(L, "%sgiven up: the run ended and this code had not returned to dbscale",
                    lua_tostring(L, -1));
    lua_error(L);
}

/* The process's resident memory, MB; -1 when unknown. */
static long rss_mb(void)
{
    char buf[128];
    long pages = 0, rss = 0;
    if (procfs_read("/proc/self/statm", buf, sizeof buf) < 0 ||
        sscanf(buf, "%ld %ld", &pages, &rss) != 2)
        return -1;
    return rss * (sysconf(_SC_PAGESIZE) / 1024) / 1024;
}

/* DBSCALE_LUA_MEM_MB, else half the machine's memory; 0 = no limit. */
static long mem_limit_mb(void)
{
    const char *e = getenv("DBSCALE_LUA_MEM_MB");
    if (e && *e)
        return atol(e) > 0 ? atol(e) : 0;
    long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
    return pages > 0 && psz > 0 ? pages / 2 * (psz / 1024) / 1024 : 0;
}

struct watched {
    unsigned long steps;
    uint64_t moved, hooked; /* when steps last changed; when the hook was set (0 = not) */
};

struct lwatch {
    struct lloop_run *run;
    struct lloop *loops;
    int nl;
    struct lwatch_lines ln;
    pthread_t th;
    atomic_int done, abandoned;
    uint64_t ended, stopped; /* when the run was first seen ending / stopped, ns */
    struct watched *w;
    char why[1024]; /* written by the watchdog only, read after lwatch_stop or abandoned */
};

/* The function loop i's connection c is stuck in, and where it is defined
 * (end: when the run ended for it). */
static void say_stuck(struct lwatch *x, const struct lloop_conn *c, uint64_t now, uint64_t end,
                      int i)
{
    int st = __atomic_load_n(&c->stage, __ATOMIC_RELAXED);
    const char *fn = st == LLOOP_INIT ? "thread_init" : st == LLOOP_DONE ? "thread_done" : "event";
    int line = st == LLOOP_INIT   ? x->ln.thread_init
               : st == LLOOP_DONE ? x->ln.thread_done
                                  : x->ln.event;
    char where[32] = "";
    if (line > 0)
        snprintf(where, sizeof where, "%d:", line);
    size_t l = strlen(x->why);
    snprintf(x->why + l, sizeof x->why - l,
             "%s%s:%s %s() of connection %d (sysbench.tid %d) ran %.1f s past the run's end "
             "without returning to dbscale (%.1f s in all: a loop without a database call, or "
             "a call that blocks): the run was abandoned",
             l ? "; " : "", x->ln.path, where, fn, c->t.tid, c->t.tid, (double)(now - end) / 1e9,
             (double)(now - x->w[i].moved) / 1e9);
}

/* One look at every loop; 1 when one is abandoned. */
static int look(struct lwatch *x, uint64_t now)
{
    for (int i = 0; i < x->nl; i++) {
        struct lloop *l = &x->loops[i];
        struct watched *w = &x->w[i];
        unsigned long s = atomic_load_explicit(&l->steps, memory_order_relaxed);
        if (s != w->steps)
            w->steps = s, w->moved = now, w->hooked = 0;
        struct lloop_conn *c = atomic_load_explicit(&l->cur, memory_order_relaxed);
        if (!c || !x->ended)
            continue;
        /* thread_done runs after the end by design: only a stop cuts it short */
        int stage = __atomic_load_n(&c->stage, __ATOMIC_RELAXED);
        uint64_t end = stage == LLOOP_DONE ? x->stopped : x->ended;
        if (!end)
            continue;
        uint64_t from = w->moved > end ? w->moved : end;
        if (now < from + LLOOP_GRACE_NS)
            continue;
        if (!w->hooked) {           /* interpreted code unwinds at its next instructions */
            if (stage == LLOOP_RUN) /* as an event whose reply was given up */
                __atomic_store_n(&c->stuck, 1, __ATOMIC_RELAXED);
            __atomic_store_n(&c->a.abort, 1, __ATOMIC_RELAXED);
            lua_sethook(c->L, watch_hook, LUA_MASKCOUNT, 1000);
            w->hooked = now;
        } else if (now - w->hooked >= LWATCH_HOOK_NS) {
            say_stuck(x, c, now, end, i);
            return 1;
        }
    }
    return 0;
}

/* 1 when the run was stopped (a signal, a failure), not only over its
 * time: read from the pool's window, as the loops read it. */
static int run_stopped(struct lloop_run *run)
{
    return atomic_load_explicit(&run->pool->win.stop, memory_order_relaxed);
}

/* 1 when the run is ending (a stop, a failure, the deadline). */
static int run_ending(struct lloop_run *run)
{
    return window_ending(&run->pool->win, now_ns());
}

static void *watch_main(void *arg)
{
    struct lwatch *x = arg;
    long limit = mem_limit_mb();
    while (!atomic_load(&x->done)) {
        uint64_t now = now_ns();
        long mb = limit > 0 && !x->stopped ? rss_mb() : -1;
        if (mb > limit) { /* the script's states eat the machine: stop the run now */
            snprintf(x->why, sizeof x->why,
                     "%s: dbscale's memory reached %ld MB (the limit is half the machine's, or "
                     "DBSCALE_LUA_MEM_MB=%ld): the run was stopped",
                     x->ln.path, mb, limit);
            window_stop(&x->run->pool->win);
            x->stopped = x->ended = now - LLOOP_GRACE_NS; /* stuck code is given up at once */
        }
        if (!x->stopped && run_stopped(x->run))
            x->stopped = now;
        if (!x->ended && run_ending(x->run))
            x->ended = now;
        if (look(x, now)) {
            atomic_store(&x->abandoned, 1);
            break;
        }
        struct timespec ts = {0, 50000000};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

struct lwatch *lwatch_start(struct lloop_run *run, struct lloop *loops, int nl,
                            const struct lwatch_lines *ln)
{
    struct lwatch *x = xcalloc(1, sizeof *x);
    x->run = run, x->loops = loops, x->nl = nl, x->ln = *ln;
    x->w = xcalloc((size_t)nl, sizeof *x->w);
    uint64_t now = now_ns();
    for (int i = 0; i < nl; i++)
        x->w[i].moved = now;
    if (pthread_create(&x->th, NULL, watch_main, x) != 0)
        die(EXIT_RUNTIME, "cannot start the scripted run's watchdog thread");
    return x;
}

int lwatch_abandoned(struct lwatch *x)
{
    return atomic_load(&x->abandoned);
}

const char *lwatch_stop(struct lwatch *x)
{
    atomic_store(&x->done, 1);
    pthread_join(x->th, NULL);
    return x->why[0] ? x->why : NULL;
}

void lwatch_free(struct lwatch *x)
{
    if (!x)
        return;
    free(x->w);
    free(x);
}
