/*
 * lapi_table.c - the sysbench table of one Lua state: version, tid, opt (the
 * script's and the general options, '-' spelled '_'), cmdline, rand
 * (lapi_rand.c), and the empty sql and test tables the prelude fills.
 *
 * The one idea: option values are typed as sysbench types them (numbers,
 * booleans, strings), and a secret (a password) never reaches a script.
 * Never prints.
 */
#include <lauxlib.h>
#include <stdio.h>

#include "lua/lapi.h"

static void set_opt(lua_State *L, const struct opts *o)
{
    lua_newtable(L);
    for (size_t i = 0; o && i < o->n; i++) {
        const struct optdef *d = &o->defs[i];
        const char *v = o->val[i] ? o->val[i] : d->def;
        char key[128];
        snprintf(key, sizeof key, "%s", d->name);
        for (char *p = key; *p; p++)
            if (*p == '-')
                *p = '_';
        if (!v || d->type == OPT_SECRET || d->type == OPT_ALIAS || d->type == OPT_REFUSED)
            continue;
        switch (d->type) {
        case OPT_INT:
        case OPT_SIZE:
        case OPT_NUM:
            lua_pushnumber(L, opts_num(o, d->name));
            break;
        case OPT_BOOL:
            lua_pushboolean(L, opts_bool(o, d->name));
            break;
        default:
            lua_pushstring(L, v);
        }
        lua_setfield(L, -2, key);
    }
}

void lapi_push_sysbench(lua_State *L, struct lapi_thread *t)
{
    const struct lapi_script *s = t->s;
    lua_newtable(L);
    lua_pushstring(L, "1.0.20");
    lua_setfield(L, -2, "version");
    lua_pushstring(L, "");
    lua_setfield(L, -2, "version_extra");
    lua_pushnumber(L, t->tid);
    lua_setfield(L, -2, "tid");
    set_opt(L, s->o);
    /* the run's own count: in a sweep --threads is a list, a level one number */
    lua_pushnumber(L, s->threads > 0 ? s->threads : 1);
    lua_setfield(L, -2, "threads");
    lua_setfield(L, -2, "opt");
    lua_newtable(L); /* cmdline */
    lua_newtable(L);
    lua_setfield(L, -2, "options");
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "PARALLEL_COMMAND");
    if (s->command) {
        lua_pushstring(L, s->command);
        lua_setfield(L, -2, "command");
    }
    lua_pushstring(L, s->path);
    lua_setfield(L, -2, "script_path");
    lua_newtable(L);
    for (int i = 0; i < s->argc; i++) {
        lua_pushstring(L, s->argv[i]);
        lua_rawseti(L, -2, i);
    }
    lua_setfield(L, -2, "argv");
    lua_setfield(L, -2, "cmdline");
    lapi_push_rand(L, t);
    lua_setfield(L, -2, "rand");
    lua_newtable(L);
    lua_setfield(L, -2, "sql");
    lua_newtable(L);
    lua_pushstring(L, s->path);
    lua_setfield(L, -2, "path");
    lua_setfield(L, -2, "test");
}
