/*
 * lapi_rand.c - sysbench.rand for one Lua state: default (--rand-type),
 * uniform, gaussian, special, pareto, zipfian, string, varstring, unique and
 * uniform_double.
 *
 * The one idea: these are client/rng.h's generators and distributions, the
 * ones the built-in mixes draw from, on the state's own per-thread rng, so a
 * script and a built-in run hit the same rows for the same --rand-seed.
 * Never shares a generator between threads.
 */
#include <lauxlib.h>
#include <stdlib.h>

#include "lapi.h"
#include "util.h"

static struct lapi_thread *self(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

static uint32_t arg_u32(lua_State *L, int i)
{
    lua_Number v = luaL_checknumber(L, i);
    return v < 0 ? 0 : v > 4294967295.0 ? 4294967295u : (uint32_t)v;
}

static int rand_with(lua_State *L, const struct rng_dist *d)
{
    struct lapi_thread *t = self(L);
    uint32_t a = arg_u32(L, 1), b = arg_u32(L, 2);
    if (b < a)
        return luaL_error(L, "sysbench.rand: the upper bound %u is below the lower %u", b, a);
    lua_pushnumber(L, rng_dist(d, &t->rng, a, b));
    return 1;
}

static int r_default(lua_State *L)
{
    return rand_with(L, self(L)->s->dist);
}
static int r_uniform(lua_State *L)
{
    return rand_with(L, &self(L)->s->kinds[0]);
}
static int r_gaussian(lua_State *L)
{
    return rand_with(L, &self(L)->s->kinds[1]);
}
static int r_special(lua_State *L)
{
    return rand_with(L, &self(L)->s->kinds[2]);
}
static int r_pareto(lua_State *L)
{
    return rand_with(L, &self(L)->s->kinds[3]);
}
static int r_zipfian(lua_State *L)
{
    return rand_with(L, &self(L)->s->kinds[4]);
}

static int r_double(lua_State *L)
{
    lua_pushnumber(L, rng_double(&self(L)->rng));
    return 1;
}

static int r_string(lua_State *L)
{
    size_t n;
    const char *fmt = luaL_checklstring(L, 1, &n);
    char small[512], *out = n < sizeof small ? small : xmalloc(n + 1);
    rng_str(&self(L)->rng, fmt, out);
    lua_pushlstring(L, out, n);
    if (out != small)
        free(out);
    return 1;
}

static int r_varstring(lua_State *L)
{
    struct lapi_thread *t = self(L);
    uint32_t a = arg_u32(L, 1), b = arg_u32(L, 2);
    if (b < a || b > 1 << 20)
        return luaL_error(L, "sysbench.rand.varstring: bad lengths %u..%u", a, b);
    static const char al[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    uint32_t n = rng_uniform(&t->rng, a, b);
    char *out = xmalloc(n + 1);
    for (uint32_t i = 0; i < n; i++)
        out[i] = al[rng_uniform(&t->rng, 0, sizeof al - 2)];
    lua_pushlstring(L, out, n);
    free(out);
    return 1;
}

/* Unique across threads and calls: thread tid takes every threads-th slot
 * of a 32-bit bijection (odd multiply and xor-shifts are invertible). */
static int r_unique(lua_State *L)
{
    struct lapi_thread *t = self(L);
    uint32_t x = t->unique_n++ * (uint32_t)t->s->threads + (uint32_t)t->tid;
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    lua_pushnumber(L, x);
    return 1;
}

/* Push the sysbench.rand table, its functions bound to thread t. */
void lapi_push_rand(lua_State *L, struct lapi_thread *t)
{
    static const luaL_Reg rnd[] = {{"default", r_default},
                                   {"uniform", r_uniform},
                                   {"gaussian", r_gaussian},
                                   {"special", r_special},
                                   {"pareto", r_pareto},
                                   {"zipfian", r_zipfian},
                                   {"string", r_string},
                                   {"varstring", r_varstring},
                                   {"unique", r_unique},
                                   {"uniform_double", r_double},
                                   {NULL, NULL}};
    lua_newtable(L);
    for (const luaL_Reg *r = rnd; r->name; r++) {
        lua_pushlightuserdata(L, t);
        lua_pushcclosure(L, r->func, 1);
        lua_setfield(L, -2, r->name);
    }
}
