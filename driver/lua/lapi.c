/*
 * lapi.c - sysbench's Lua API over dbscale's client: one Lua state per
 * connection thread, opened with the prelude (lapi_prelude.h) over the C
 * primitives it builds sysbench's objects from (the SQL objects' C half:
 * lapi_sql.c; the sysbench table itself: lapi_table.c, its rand:
 * lapi_rand.c), after sysbench's own ffi declarations (lapi_sbdecl.h), and
 * the ffi symbols scripts call by name for counting and pacing.
 *
 * The one idea: the random numbers are client/rng.h's, seeded per thread as
 * the built-in mixes seed theirs, and statement counting (read / write /
 * other by the statement's first word) happens in C, so a script's
 * figures are counted the way a built-in run's are. Never prints, never
 * exits: every failure becomes a Lua error naming the script's line.
 */
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <string.h>

#include "lua/lapi.h"
#include "lua/lapi_prelude.h"
#include "lua/lapi_sbdecl.h"
#include "lua/lapi_sql.h"
#include "lua/lfind.h"
#include "core/safefile.h"

/* The thread the running Lua state belongs to, for the ffi symbols, which
 * sysbench declares without a state argument. */
static _Thread_local struct lapi_thread *lapi_cur;

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

struct lapi_thread *lapi_current(void)
{
    return lapi_cur;
}

/* ---- thread_run's pacing ---- */

/* dbscale_more said 2 (--rate: the next arrival is not due yet): true
 * when it is, false when the run ends first; blocking, the wait happened
 * in more() and the answer is yes. */
static int wait_arrival(struct lapi_thread *t)
{
    int yes = 1;
    if (t->aio) {
        t->aio->want = LAPI_WAIT_TIMER;
        if (!t->aio->abort)
            t->wait(t);
        yes = t->aio->arrived && !t->aio->abort;
    }
    return yes;
}

static int c_wait_arrival(lua_State *L)
{
    lua_pushboolean(L, wait_arrival(lapi_self(L)));
    return 1;
}

/* sysbench's own names for the pacing (lapi_sbdecl.h declares them), for
 * a script whose thread_run calls them as sysbench's does. The thread id
 * is the running state's: a state paces only its own connection. */
__attribute__((visibility("default"))) _Bool sb_more_events(int thread_id)
{
    (void)thread_id;
    struct lapi_thread *t = lapi_cur;
    int m = t && t->more ? t->more(t) : 0;
    return m == 2 ? wait_arrival(t) : m != 0;
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

/* The primitives table handed to the prelude. */
static void push_prims(lua_State *L, struct lapi_thread *t)
{
    static const luaL_Reg prims[] = {{"wait_arrival", c_wait_arrival}, {NULL, NULL}};
    const luaL_Reg *sets[] = {lapi_sql_prims, prims};
    lua_newtable(L);
    for (int k = 0; k < 2; k++)
        for (const luaL_Reg *r = sets[k]; r->name; r++) {
            lua_pushlightuserdata(L, t);
            luaL_getmetatable(L, "dbscale.conn");
            lua_pushcclosure(L, r->func, 2);
            lua_setfield(L, -2, r->name);
        }
    lua_pushstring(L, t->s->ops->name);
    lua_setfield(L, -2, "driver");
}

/* require() finds the script's neighbours (oltp_common.lua), then the
 * working directory, then --lua-path, then sysbench's own install
 * directory, as sysbench (lfind.c). */
static void set_path(lua_State *L, const struct lapi_script *s)
{
    char path[4096];
    lfind_package_path(s->path, s->lua_path, path, sizeof path);
    lua_getglobal(L, "package");
    lua_pushstring(L, path);
    lua_getfield(L, -2, "path");
    lua_concat(L, 2);
    lua_setfield(L, -2, "path");
    lua_pop(L, 1);
}

void lapi_thread_seed(struct lapi_thread *t, const struct lapi_script *s, int tid)
{
    memset(t, 0, sizeof *t);
    t->tid = tid;
    t->s = s;
    rng_seed(&t->rng, s->seed, (uint64_t)tid + 1);
}

void lapi_enter(struct lapi_thread *t)
{
    lapi_cur = t;
}

int lapi_pcall(lua_State *L, int nargs, char *err, size_t errlen)
{
    lua_getfield(L, LUA_REGISTRYINDEX, "dbscale.thread");
    lapi_cur = lua_touserdata(L, -1);
    lua_pop(L, 1);
    if (lua_pcall(L, nargs, 0, 0) != 0) {
        const char *m = lua_tostring(L, -1);
        if (!m && lua_istable(L, -1)) {
            lua_getfield(L, -1, "sql_errmsg");
            m = lua_tostring(L, -1);
        }
        snprintf(err, errlen, "%s", m ? m : "(an error that is not a string)");
        lua_settop(L, 0);
        return -1;
    }
    return 0;
}

int lapi_call(lua_State *L, const char *fn, int pass_tid, char *err, size_t errlen)
{
    lua_getglobal(L, fn);
    if (!lua_isfunction(L, -1)) {
        lua_pop(L, 1);
        return 1;
    }
    lua_getglobal(L, "sysbench");
    lua_getfield(L, -1, "tid");
    lua_remove(L, -2);
    if (!pass_tid)
        lua_pop(L, 1);
    int r = lapi_pcall(L, pass_tid ? 1 : 0, err, errlen);
    return r;
}

/* luaL_loadfile, but only from a regular file: a FIFO named as the script
 * would block the open, a device feed the parser without end. */
static int load_script(lua_State *L, const char *path)
{
    struct sbuf b = {0};
    int e = sbuf_read_file(&b, path);
    if (e < 0) {
        lua_pushfstring(L, "cannot open %s: %s", path, file_strerror(e));
        return LUA_ERRFILE;
    }
    lua_pushfstring(L, "@%s", path);
    const char *s = b.s ? b.s : "";
    if (b.len > 0 && s[0] == '#') /* a #! line, as luaL_loadfile skips it */
        s = memchr(s, '\n', b.len) ? memchr(s, '\n', b.len) : s + b.len;
    int rc = luaL_loadbuffer(L, s, b.len - (size_t)(s - (b.s ? b.s : "")), lua_tostring(L, -1));
    lua_remove(L, -2); /* the chunk name, under the function or the error */
    sbuf_free(&b);
    return rc;
}

/* os.exit() would end dbscale from inside a connection's loop: no report,
 * no results kept, a sweep's levels and server left to chance, and exit 0
 * for a run that never finished. It is an error naming the script's line
 * instead, which ends the run (or command) as any other error does. */
static int os_exit_refused(lua_State *L)
{
    const char *code = lua_type(L, 1) == LUA_TNUMBER || lua_type(L, 1) == LUA_TSTRING
                           ? lua_tostring(L, 1)
                       : lua_type(L, 1) == LUA_TBOOLEAN ? (lua_toboolean(L, 1) ? "true" : "false")
                                                        : "";
    luaL_where(L, 1);
    lua_pushfstring(L, "%sos.exit(%s) called: dbscale ends the run here, as on an error",
                    lua_tostring(L, -1), code);
    return lua_error(L);
}

lua_State *lapi_open(struct lapi_thread *t, char *err, size_t errlen)
{
    lua_State *L = luaL_newstate();
    if (!L) {
        snprintf(err, errlen, "cannot create a Lua state (out of memory)");
        return NULL;
    }
    luaL_openlibs(L);
    lua_getglobal(L, "os");
    lua_pushcfunction(L, os_exit_refused);
    lua_setfield(L, -2, "exit");
    lua_pop(L, 1);
    lua_pushlightuserdata(L, t);
    lua_setfield(L, LUA_REGISTRYINDEX, "dbscale.thread");
    lapi_sql_open(L);
    lapi_push_sysbench(L, t);
    lua_setglobal(L, "sysbench");
    set_path(L, t->s);
    if (luaL_loadbuffer(L, lapi_sbdecl, sizeof lapi_sbdecl - 1, "=dbscale") != 0 ||
        lapi_pcall(L, 0, err, errlen) < 0) {
        if (lua_gettop(L) > 0)
            snprintf(err, errlen, "internal: %s", lua_tostring(L, -1));
        lua_close(L);
        return NULL;
    }
    if (luaL_loadbuffer(L, lapi_prelude, sizeof lapi_prelude - 1, "=dbscale") != 0) {
        snprintf(err, errlen, "internal: %s", lua_tostring(L, -1));
        lua_close(L);
        return NULL;
    }
    push_prims(L, t);
    if (lapi_pcall(L, 1, err, errlen) < 0 || load_script(L, t->s->path) != 0) {
        if (lua_gettop(L) > 0)
            snprintf(err, errlen, "%s", lua_tostring(L, -1));
        lua_close(L);
        return NULL;
    }
    if (lapi_pcall(L, 0, err, errlen) < 0) {
        lua_close(L);
        return NULL;
    }
    return L;
}
