/*
 * lscript.c - a sysbench Lua script's life: its options and its commands
 * other than run (lrun.c), each thread with its own Lua state (lapi_state.c) and
 * connection.
 *
 * The one idea: sysbench's shape, kept plain. Every thread opens its own
 * state, so per-thread globals (con, stmt, param) are the script's own, and
 * its calls block (a command may call os.execute). Nothing here prints or
 * exits: a failure is a message naming the script, line and thread.
 */
#include <lauxlib.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "lua/lscript.h"
#include "core/util.h"

static char *keep(struct lscript_opts *x, const char *s)
{
    x->strs = xrealloc(x->strs, (x->nstrs + 1) * sizeof *x->strs);
    return x->strs[x->nstrs++] = xstrdup(s);
}

void lscript_opts_free(struct lscript_opts *x)
{
    for (size_t i = 0; i < x->nstrs; i++)
        free(x->strs[i]);
    free(x->strs);
    free(x->defs);
    memset(x, 0, sizeof *x);
}

static int known(const struct optdef *base, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(base[i].name, name))
            return 1;
    return 0;
}

int lscript_options(const struct lapi_script *s, const struct optdef *base, size_t nbase,
                    struct lscript_opts *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    struct lapi_thread t = {.tid = 0, .s = s};
    lua_State *L = lapi_open(&t, err, errlen);
    if (!L)
        return -1;
    lua_getglobal(L, "sysbench");
    lua_getfield(L, -1, "cmdline");
    lua_getfield(L, -1, "options");
    if (!lua_istable(L, -1)) {
        lua_close(L);
        return 0;
    }
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        if (lua_type(L, -2) != LUA_TSTRING || !lua_istable(L, -1)) {
            snprintf(err, errlen,
                     "%s: sysbench.cmdline.options: each entry must be "
                     "name = {description, default}",
                     s->path);
            lua_close(L);
            lscript_opts_free(out);
            return -1;
        }
        char name[128];
        snprintf(name, sizeof name, "%s", lua_tostring(L, -2));
        for (char *p = name; *p; p++)
            if (*p == '_')
                *p = '-';
        if (!known(base, nbase, name)) {
            struct optdef d = {0};
            d.name = keep(out, name);
            lua_rawgeti(L, -1, 1);
            d.help = keep(out, lua_isstring(L, -1) ? lua_tostring(L, -1) : "(a script option)");
            lua_pop(L, 1);
            lua_rawgeti(L, -1, 2);
            switch (lua_type(L, -1)) {
            case LUA_TNUMBER:
                d.type = OPT_NUM;
                d.def = keep(out, lua_tostring(L, -1));
                break;
            case LUA_TBOOLEAN:
                d.type = OPT_BOOL;
                d.def = lua_toboolean(L, -1) ? "on" : "off";
                break;
            case LUA_TSTRING:
                d.type = OPT_STR;
                d.def = keep(out, lua_tostring(L, -1));
                break;
            case LUA_TTABLE: {
                d.type = OPT_LIST;
                struct sbuf b = {0};
                for (int i = 1;; i++) {
                    lua_rawgeti(L, -1, i);
                    if (lua_isnil(L, -1)) {
                        lua_pop(L, 1);
                        break;
                    }
                    sbuf_printf(&b, "%s%s", i > 1 ? "," : "", lua_tostring(L, -1));
                    lua_pop(L, 1);
                }
                d.def = keep(out, b.s ? b.s : "");
                sbuf_free(&b);
                break;
            }
            default:
                d.type = OPT_STR;
            }
            lua_pop(L, 1);
            /* an explicit sysbench.cmdline.ARG_* type wins over the
             * default's: {"rows", 10, ARG_SIZE} takes --rows=2K as 2048 */
            lua_rawgeti(L, -1, 3);
            if (lua_type(L, -1) == LUA_TNUMBER) {
                static const enum opt_type by_arg[] = {OPT_STR, OPT_BOOL, OPT_INT,  OPT_SIZE,
                                                       OPT_NUM, OPT_STR,  OPT_LIST, OPT_STR};
                int t = (int)lua_tonumber(L, -1);
                if (t >= 1 && t <= 7)
                    d.type = by_arg[t];
            }
            lua_pop(L, 1);
            out->defs = xrealloc(out->defs, (out->n + 1) * sizeof *out->defs);
            out->defs[out->n++] = d;
        }
        lua_pop(L, 1);
    }
    lua_close(L);
    return 0;
}

/* commands[cmd] as {fn, parallel} on the stack (1) or nothing (0). */
static int find_command(lua_State *L, const char *cmd, int *parallel)
{
    lua_getglobal(L, "sysbench");
    lua_getfield(L, -1, "cmdline");
    lua_getfield(L, -1, "commands");
    if (lua_istable(L, -1)) {
        lua_getfield(L, -1, cmd);
        if (lua_istable(L, -1)) {
            lua_rawgeti(L, -1, 2);
            *parallel = lua_toboolean(L, -1);
            lua_pop(L, 1);
            lua_rawgeti(L, -1, 1);
            lua_replace(L, -5);
            lua_pop(L, 3);
            if (lua_isfunction(L, -1))
                return 1;
            lua_pop(L, 1);
            return 0;
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 3);
    *parallel = 0;
    lua_getglobal(L, cmd);
    if (lua_isfunction(L, -1))
        return 1;
    lua_pop(L, 1);
    return 0;
}

int lscript_has_command(const struct lapi_script *s, const char *cmd, char *err, size_t errlen)
{
    struct lapi_thread t = {.tid = 0, .s = s};
    lua_State *L = lapi_open(&t, err, errlen);
    if (!L)
        return -1;
    int par, r = find_command(L, cmd, &par);
    lua_close(L);
    return r;
}

struct cmd_thread {
    const struct lapi_script *s;
    struct lapi_thread t;
    pthread_t th;
    int failed;
    char err[700];
};

static void *cmd_main(void *arg)
{
    struct cmd_thread *c = arg;
    lua_State *L = lapi_open(&c->t, c->err, sizeof c->err);
    if (!L) {
        c->failed = 1;
        return NULL;
    }
    int par;
    if (find_command(L, c->s->command, &par) && lapi_pcall(L, 0, c->err, sizeof c->err) < 0)
        c->failed = 1;
    lua_close(L);
    return NULL;
}

int lscript_command(const struct lapi_script *s, char *err, size_t errlen)
{
    struct lapi_thread t;
    lapi_thread_seed(&t, s, 0);
    lua_State *L = lapi_open(&t, err, errlen);
    if (!L)
        return -1;
    int par;
    if (!find_command(L, s->command, &par)) {
        snprintf(err, errlen, "%s: the script has no '%s' command", s->path, s->command);
        lua_close(L);
        return -2;
    }
    if (!par) {
        int r = lapi_pcall(L, 0, err, errlen);
        lua_close(L);
        return r;
    }
    lua_close(L);
    int n = s->threads;
    struct cmd_thread *ct = xcalloc((size_t)n, sizeof *ct);
    int started = 0, rc = 0;
    for (int i = 0; i < n; i++) {
        ct[i].s = s;
        lapi_thread_seed(&ct[i].t, s, i);
        if (pthread_create(&ct[i].th, NULL, cmd_main, &ct[i]) != 0) {
            snprintf(err, errlen, "cannot start thread %d", i);
            rc = -1;
            break;
        }
        started++;
    }
    for (int i = 0; i < started; i++) {
        pthread_join(ct[i].th, NULL);
        if (ct[i].failed && rc == 0) {
            snprintf(err, errlen, "thread %d: %s", i, ct[i].err);
            rc = -1;
        }
    }
    free(ct);
    return rc;
}
