/*
 * lapi_sql.c - the C half of sysbench.sql's objects (the Lua half is the
 * prelude, lapi_prelude.lua): connections, the result set each one holds,
 * prepared statements, and the ffi entry points stmt:execute and con:query
 * go through. A statement in run's loops starts here and waits on the
 * connection's fiber (lloop.c); elsewhere it blocks.
 */
#include <lauxlib.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "lua/lapi_sql.h"
#include "lua/lerrors.h"
#include "core/util.h"

/* ---- connections ---- */

/* A connection holds one result set, as sysbench's does (con->rs): every
 * query and execute hands back the same object, its previous rows freed
 * when the next statement starts. No Lua object and no allocation per
 * statement; a script keeping a result past the next statement sees what
 * sysbench shows it (the newer rows). */
struct lres {
    struct db_result r;
    long next;
};

struct lconn {
    struct db_conn *c;
    struct lapi_thread *t;
    struct lres *rs; /* kept alive by the registry reference rsref */
    int rsref;
    char *sql[LAPI_MAX_STMTS];
    unsigned char kind[LAPI_MAX_STMTS];
};

static int stmt_kind(const char *sql)
{
    while (*sql == ' ' || *sql == '\t' || *sql == '\n' || *sql == '(')
        sql++;
    if (!strncasecmp(sql, "select", 6))
        return SB_CNT_READ;
    if (!strncasecmp(sql, "insert", 6) || !strncasecmp(sql, "update", 6) ||
        !strncasecmp(sql, "delete", 6) || !strncasecmp(sql, "replace", 7))
        return SB_CNT_WRITE;
    return SB_CNT_OTHER;
}

static int count_params(const char *sql)
{
    int n = 0;
    for (const char *p = sql; *p; p++)
        n += *p == '?';
    return n;
}

/* A primitive's connection argument: checked against the metatable the
 * primitive holds as its second upvalue, since luaL_checkudata interns its
 * name string on every call, a cost paid per statement. */
static struct lconn *toconn(lua_State *L, int idx)
{
    struct lconn *lc = lua_touserdata(L, idx);
    if (!lc || !lua_getmetatable(L, idx) || !lua_rawequal(L, -1, lua_upvalueindex(2)))
        luaL_typerror(L, idx, "dbscale.conn");
    lua_pop(L, 1);
    return lc;
}

static struct lconn *checkconn(lua_State *L, int idx)
{
    struct lconn *lc = toconn(L, idx);
    if (!lc->c)
        luaL_error(L, "the connection is closed (disconnect() was called)");
    return lc;
}

/* A statement starts (or its connection or statement closes): the
 * previous one's rows go, as sysbench frees them. */
static void drop_result(struct lconn *lc)
{
    if (!lc->rs)
        return;
    db_result_free(&lc->rs->r);
    lc->rs->next = 0;
}

/* Every close is told first: a run's loop keeps a socket in its epoll
 * while it stays the same, and must take it out while its number is still
 * its own (a closed one's may come back for another socket). */
static void close_conn(struct lconn *lc)
{
    drop_result(lc); /* its rows may live in the connection's statements */
    if (lc->t->on_close)
        lc->t->on_close(lc->t, lc->c);
    lc->t->s->ops->close(lc->c);
}

static int conn_gc(lua_State *L)
{
    struct lconn *lc = luaL_checkudata(L, 1, "dbscale.conn");
    if (lc->c)
        close_conn(lc);
    lc->c = NULL;
    for (int i = 0; i < LAPI_MAX_STMTS; i++) {
        free(lc->sql[i]);
        lc->sql[i] = NULL;
    }
    if (lc->rs) { /* the result set goes with its connection (its own __gc frees its rows) */
        luaL_unref(L, LUA_REGISTRYINDEX, lc->rsref);
        lc->rs = NULL;
    }
    return 0;
}

/* A script's connection to its thread's target, its statements prepared
 * at the server whatever --db-ps-mode says (as they always were); the row
 * path needs that for any statement with parameters. */
static struct db_conn *open_conn(struct lapi_thread *t, struct db_error *e)
{
    struct db_target tg = t->s->targets[t->tid % t->s->ntargets];
    tg.ps = 1;
    return t->s->ops->connect(&tg, e);
}

static int c_connect(lua_State *L)
{
    struct lapi_thread *t = lapi_self(L);
    if (!t->s->targets || t->s->ntargets < 1)
        return luaL_error(L, "no connection while the script's options are read (connect in "
                             "init, thread_init or a command)");
    struct db_error e = {0};
    struct db_conn *c = open_conn(t, &e);
    if (!c)
        return luaL_error(L, "connection creation failed: %s", e.msg);
    struct lconn *lc = lua_newuserdata(L, sizeof *lc);
    memset(lc, 0, sizeof *lc);
    lc->c = c;
    lc->t = t;
    luaL_getmetatable(L, "dbscale.conn");
    lua_setmetatable(L, -2);
    lc->rs = lua_newuserdata(L, sizeof *lc->rs);
    memset(lc->rs, 0, sizeof *lc->rs);
    luaL_getmetatable(L, "dbscale.result");
    lua_setmetatable(L, -2);
    lc->rsref = luaL_ref(L, LUA_REGISTRYINDEX);
    return 1;
}

static int c_disconnect(lua_State *L)
{
    struct lconn *lc = toconn(L, 1);
    if (lc->c)
        close_conn(lc);
    lc->c = NULL;
    return 0;
}

/* A fresh session and the connection's statements prepared on it again, so
 * the script's statement objects stay valid across a server restart. */
static int c_reconnect(lua_State *L)
{
    struct lconn *lc = toconn(L, 1);
    const struct db_ops *ops = lc->t->s->ops;
    if (lc->c)
        close_conn(lc);
    lc->c = NULL;
    struct db_error e = {0};
    uint64_t until = now_ns() + 30ull * 1000000000ull;
    while (!(lc->c = open_conn(lc->t, &e))) {
        if (now_ns() > until)
            return luaL_error(L, "reconnect failed for 30 s: %s", e.msg);
        struct timespec ts = {0, 100000000};
        nanosleep(&ts, NULL);
    }
    lapi_count(lc->t, SB_CNT_RECONNECT);
    for (int i = 0; i < LAPI_MAX_STMTS; i++)
        if (lc->sql[i] && ops->prepare(lc->c, i, lc->sql[i], count_params(lc->sql[i]), &e) < 0)
            return luaL_error(L, "re-preparing after reconnect: %s", e.msg);
    return 0;
}

/* An error the script's run goes past (the event restarts): counted, and
 * by its code (SQLSTATE or error number) for the report. */
static int c_ignored(lua_State *L)
{
    struct lconn *lc = toconn(L, 1);
    lapi_count(lc->t, SB_CNT_ERROR);
    const char *code = luaL_optstring(L, 2, ""); /* a lost connection has none */
    if (lc->t->s->errors)
        lerrors_count(lc->t->s->errors, code[0] ? code : "?");
    if (lc->t->on_ignored) /* "?" for none, as the built-in loops count it */
        lc->t->on_ignored(lc->t, lc->t->last_err.code[0] ? lc->t->last_err.code : "?");
    return 0;
}

/* ---- result sets ---- */

static int res_gc(lua_State *L)
{
    struct lres *rs = luaL_checkudata(L, 1, "dbscale.result");
    db_result_free(&rs->r);
    return 0;
}

static int res_fetch_row(lua_State *L)
{
    struct lres *rs = luaL_checkudata(L, 1, "dbscale.result");
    if (rs->next >= rs->r.nrows || (!rs->r.cell && !rs->r.h)) {
        lua_pushnil(L);
        return 1;
    }
    lua_createtable(L, rs->r.nfields, 0);
    for (int f = 0; f < rs->r.nfields; f++) {
        size_t len = 0;
        const char *v = db_result_value(&rs->r, rs->next, f, &len);
        if (!v)
            continue; /* SQL NULL: a hole, as sysbench leaves it */
        lua_pushlstring(L, v, len);
        lua_rawseti(L, -2, f + 1);
    }
    rs->next++;
    return 1;
}

static int res_index(lua_State *L)
{
    struct lres *rs = luaL_checkudata(L, 1, "dbscale.result");
    const char *k = luaL_checkstring(L, 2);
    if (!strcmp(k, "nrows"))
        lua_pushnumber(L, (lua_Number)(rs->r.nfields ? rs->r.nrows : rs->r.affected));
    else if (!strcmp(k, "nfields"))
        lua_pushnumber(L, rs->r.nfields);
    else if (!strcmp(k, "fetch_row"))
        lua_pushcfunction(L, res_fetch_row);
    else if (!strcmp(k, "free"))
        lua_pushcfunction(L, res_gc);
    else
        lua_pushnil(L);
    return 1;
}

/* A statement failed: what the report counts of it, and the error kept
 * for C.last_error and c_ignored. */
static void note_error(struct lapi_thread *t, const struct db_error *e)
{
    if (e->rolled_back)
        lapi_count(t, SB_CNT_OTHER);
    if (e->cls == DB_ERR_RECONNECT && t->on_lost)
        t->on_lost(t);
    t->last_err = *e;
}

/* nil, class, errno, state, message: what con:_check needs. */
static int push_error_only(lua_State *L, const struct db_error *e)
{
    lua_pushnil(L);
    lua_pushnumber(L, e->cls == DB_ERR_RETRY ? 1 : e->cls == DB_ERR_RECONNECT ? 3 : 2);
    lua_pushnumber(L, atoi(e->code));
    lua_pushstring(L, e->code);
    lua_pushstring(L, e->msg);
    return 5;
}

static int push_error(lua_State *L, struct lapi_thread *t, const struct db_error *e)
{
    note_error(t, e);
    return push_error_only(L, e);
}

/* The connection's result set now holds r. */
static void set_result(struct lconn *lc, struct db_result *r)
{
    db_result_free(&lc->rs->r);
    lc->rs->r = *r;
    lc->rs->next = 0;
}

static struct lapi_async *async_of(struct lconn *lc)
{
    struct lapi_async *a = lc->t->aio;
    if (!a)
        return NULL;
    memset(&a->res, 0, sizeof a->res);
    /* not the whole message buffer: 9 cache lines a statement */
    a->e.cls = DB_ERR_NONE;
    a->e.rolled_back = 0;
    a->e.code[0] = a->e.msg[0] = '\0';
    a->rc = 0;
    return a;
}

static int c_prepare(lua_State *L)
{
    struct lconn *lc = checkconn(L, 1);
    const char *sql = luaL_checkstring(L, 2);
    int id = 0;
    while (id < LAPI_MAX_STMTS && lc->sql[id])
        id++;
    if (id == LAPI_MAX_STMTS)
        return luaL_error(L, "more than %d prepared statements on one connection", LAPI_MAX_STMTS);
    int np = count_params(sql);
    struct db_error e = {0};
    if (lc->t->s->ops->prepare(lc->c, id, sql, np, &e) < 0)
        return push_error(L, lc->t, &e);
    lc->sql[id] = xstrdup(sql);
    lc->kind[id] = (unsigned char)stmt_kind(sql);
    lua_pushnumber(L, id);
    return 1;
}

/* v as string.format('%d', v) prints it (truncated toward zero), without
 * making a Lua string per statement. */
static const char *format_int(char buf[24], double v)
{
    /* out of int64's range (and NaN): what LuaJIT's conversion gives on x86-64 */
    long long k =
        v > -9223372036854775808.0 && v < 9223372036854775808.0 ? (long long)v : LLONG_MIN;
    unsigned long long u = k < 0 ? 0ull - (unsigned long long)k : (unsigned long long)k;
    char *p = buf + 23;
    *p = '\0';
    do
        *--p = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (k < 0)
        *--p = '-';
    return p;
}

/* ---- statements through the ffi ----
 * stmt:execute and con:query call these (the prelude) rather than C
 * functions of the Lua API: LuaJIT compiles an ffi call into the trace of
 * the event, and the connection's fiber waits inside it (lloop.c), so the
 * event's trace runs on over its statements and loops, as sysbench's does;
 * a C function would end the trace at every statement. They never raise a
 * Lua error (no unwinding through a trace): a failure is a code, and the
 * prelude asks C.last_error for its words. */
/* the prelude's message for LAPI_MANY names the number */
_Static_assert(LAPI_MAX_PARAMS == 256, "lapi_prelude.lua says 'more than 256 parameters'");
enum {
    LAPI_OK,
    LAPI_FAILED = -1,
    LAPI_CLOSED = -2,
    LAPI_ABORTED = -3,
    LAPI_NOSTMT = -4,
    LAPI_MANY = -5 /* more than LAPI_MAX_PARAMS parameters */
};

/* The next statement's parameters, set one by one just before it is sent
 * (no fiber switch between): the loop thread's, so they stay in its cache. */
static _Thread_local struct {
    const char *v[LAPI_MAX_PARAMS];
    char num[LAPI_MAX_PARAMS][24];
} args;

/* Parameter i: a string (NULL: SQL NULL). It stays the caller's: the
 * param object holds it until the statement is sent. */
__attribute__((visibility("default"))) void dbscale_arg(int i, const char *v)
{
    if (i >= 0 && i < LAPI_MAX_PARAMS)
        args.v[i] = v;
}

/* Parameter i: an integer (param:set keeps BIGINT values as numbers). */
__attribute__((visibility("default"))) void dbscale_arg_int(int i, double v)
{
    if (i >= 0 && i < LAPI_MAX_PARAMS)
        args.v[i] = format_int(args.num[i], v);
}

/* The statement started (st: what start_rows said): wait for its reply
 * (unless it came with the send) and give it to the connection's result
 * set. */
static int finish(struct lconn *lc, enum db_status st)
{
    struct lapi_thread *t = lc->t;
    struct lapi_async *a = t->aio;
    int want = st == DB_WAIT_READ || st == DB_WAIT_WRITE ? (int)st : DB_DONE;
    if (st == DB_FAILED)
        a->rc = -1;
    a->want = want;
    a->owner = lc;
    if (want != DB_DONE) {
        a->c = lc->c;
        if (!a->abort) /* after an abort, no statement waits again */
            t->wait(t);
        if (a->abort)
            return LAPI_ABORTED;
    }
    if (a->rc < 0) {
        note_error(t, &a->e);
        return LAPI_FAILED;
    }
    struct db_result r = a->res;
    memset(&a->res, 0, sizeof a->res); /* the result set owns it now */
    set_result(lc, &r);
    return LAPI_OK;
}

/* Execute prepared statement id of connection h with parameters 0..np-1. */
__attribute__((visibility("default"))) int dbscale_execute(void *h, int id, int np)
{
    struct lconn *lc = h;
    if (!lc->c)
        return LAPI_CLOSED;
    if (id < 0 || id >= LAPI_MAX_STMTS || !lc->sql[id])
        return LAPI_NOSTMT;
    if (np < 0 || np > LAPI_MAX_PARAMS)
        return LAPI_MANY;
    struct lapi_thread *t = lc->t;
    lapi_count(t, lc->kind[id]);
    drop_result(lc);
    struct lapi_async *a = async_of(lc);
    if (a)
        return finish(lc, t->s->ops->start_rows(lc->c, id, NULL, args.v, np, &a->res, &a->e));
    struct db_result r = {0};
    struct db_error e = {0};
    if (db_run_rows(t->s->ops, lc->c, id, NULL, args.v, np, &r, &e) != DB_DONE) {
        note_error(t, &e);
        return LAPI_FAILED;
    }
    set_result(lc, &r);
    return LAPI_OK;
}

/* Send sql as text on connection h. */
__attribute__((visibility("default"))) int dbscale_query(void *h, const char *sql)
{
    struct lconn *lc = h;
    if (!lc->c)
        return LAPI_CLOSED;
    if (!sql)
        return LAPI_NOSTMT;
    struct lapi_thread *t = lc->t;
    lapi_count(t, stmt_kind(sql));
    drop_result(lc);
    struct lapi_async *a = async_of(lc);
    if (a)
        return finish(lc, t->s->ops->start_rows(lc->c, -1, sql, NULL, 0, &a->res, &a->e));
    struct db_result r = {0};
    struct db_error e = {0};
    if (db_run_rows(t->s->ops, lc->c, -1, sql, NULL, 0, &r, &e) != DB_DONE) {
        note_error(t, &e);
        return LAPI_FAILED;
    }
    set_result(lc, &r);
    return LAPI_OK;
}

/* C.last_error(h): nil, class, errno, state, message of the latest failed
 * ffi statement (already counted). */
static int c_last_error(lua_State *L)
{
    struct lapi_thread *t = lapi_self(L);
    return push_error_only(L, &t->last_err);
}

/* C.query(h, sql) for the prelude's own statements (a rollback, a bulk
 * insert, query_row): the result set, or nil and the error. */
static int c_query(lua_State *L)
{
    struct lconn *lc = checkconn(L, 1);
    int rc = dbscale_query(lc, luaL_checkstring(L, 2));
    if (rc == LAPI_ABORTED)
        return luaL_error(L, "the run ended before the statement's reply came");
    if (rc != LAPI_OK)
        return push_error_only(L, &lc->t->last_err);
    lua_rawgeti(L, LUA_REGISTRYINDEX, lc->rsref);
    return 1;
}

/* C.result(h): the connection's result set object. */
static int c_result(lua_State *L)
{
    struct lconn *lc = toconn(L, 1);
    lua_rawgeti(L, LUA_REGISTRYINDEX, lc->rsref);
    return 1;
}

static int c_unprepare(lua_State *L)
{
    struct lconn *lc = toconn(L, 1);
    int id = (int)luaL_checknumber(L, 2);
    if (id < 0 || id >= LAPI_MAX_STMTS || !lc->sql[id])
        return 0;
    drop_result(lc); /* the rows may be the statement's own (MariaDB) */
    if (lc->c)
        lc->t->s->ops->unprepare(lc->c, id);
    free(lc->sql[id]);
    lc->sql[id] = NULL;
    return 0;
}

const luaL_Reg lapi_sql_prims[] = {{"connect", c_connect},     {"disconnect", c_disconnect},
                                   {"reconnect", c_reconnect}, {"query", c_query},
                                   {"prepare", c_prepare},     {"last_error", c_last_error},
                                   {"result", c_result},       {"unprepare", c_unprepare},
                                   {"ignored", c_ignored},     {NULL, NULL}};

void lapi_sql_open(lua_State *L)
{
    luaL_newmetatable(L, "dbscale.conn");
    lua_pushcfunction(L, conn_gc);
    lua_setfield(L, -2, "__gc");
    lua_pop(L, 1);
    luaL_newmetatable(L, "dbscale.result");
    lua_pushcfunction(L, res_gc);
    lua_setfield(L, -2, "__gc");
    lua_pushcfunction(L, res_index);
    lua_setfield(L, -2, "__index");
    lua_pop(L, 1);
}
