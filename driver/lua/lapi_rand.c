/*
 * lapi_rand.c - sysbench.rand for one Lua state: default (--rand-type),
 * uniform, gaussian, special, pareto, zipfian, string, varstring, unique and
 * uniform_double; and sysbench's C draws (sb_rand_default ... sb_rand_str)
 * that scripts may call through the ffi.
 *
 * The one idea: these are client/rng.h's generators and distributions, the
 * ones the built-in mixes draw from, on the state's own per-thread rng, so a
 * script and a built-in run hit the same rows for the same --rand-seed.
 * Never shares a generator between threads.
 */
#include <lauxlib.h>
#include <stdlib.h>
#include <string.h>

#include "lua/lapi.h"
#include "core/util.h"

static struct lapi_thread *self(lua_State *L)
{
    return lua_touserdata(L, lua_upvalueindex(1));
}

static uint32_t clamp_u32(double v)
{
    return !(v > 0) ? 0 : v > 4294967295.0 ? 4294967295u : (uint32_t)v;
}

static uint32_t arg_u32(lua_State *L, int i)
{
    return clamp_u32(luaL_checknumber(L, i));
}

/* default, uniform, gaussian, special, pareto and zipfian: a draw in
 * [a, b] from kind (-1: --rand-type, else s->kinds[kind]) on the running
 * state's generator; -1 when b < a, which the prelude's wrapper turns into
 * the script's error. Called through the ffi, so that a draw stays inside
 * the event's trace (lapi_ffi.c's dbscale_more says why). */
__attribute__((visibility("default"))) double dbscale_rand(int kind, double a, double b)
{
    struct lapi_thread *t = lapi_current();
    uint32_t lo = clamp_u32(a), hi = clamp_u32(b);
    if (!t || hi < lo || kind < -1 || kind > 4)
        return -1;
    return rng_dist(kind < 0 ? t->s->dist : &t->s->kinds[kind], &t->rng, lo, hi);
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
static uint32_t unique_next(struct lapi_thread *t)
{
    uint32_t x = t->unique_n++ * (uint32_t)t->s->threads + (uint32_t)t->tid;
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static int r_unique(lua_State *L)
{
    lua_pushnumber(L, unique_next(self(L)));
    return 1;
}

/* ---- the same draws under sysbench's C names (lapi_sbdecl.h declares
 * them), for scripts that call ffi.C.sb_rand_* themselves. A bound pair
 * the wrong way round draws the lower one, as no error can be raised from
 * inside an ffi call. ---- */

static uint32_t sb_draw(int kind, uint32_t a, uint32_t b)
{
    struct lapi_thread *t = lapi_current();
    if (!t || b < a)
        return a;
    return rng_dist(kind < 0 ? t->s->dist : &t->s->kinds[kind], &t->rng, a, b);
}

#define SB_EXPORT __attribute__((visibility("default")))
SB_EXPORT uint32_t sb_rand_default(uint32_t a, uint32_t b)
{
    return sb_draw(-1, a, b);
}
SB_EXPORT uint32_t sb_rand_uniform(uint32_t a, uint32_t b)
{
    return sb_draw(0, a, b);
}
SB_EXPORT uint32_t sb_rand_gaussian(uint32_t a, uint32_t b)
{
    return sb_draw(1, a, b);
}
SB_EXPORT uint32_t sb_rand_special(uint32_t a, uint32_t b)
{
    return sb_draw(2, a, b);
}
SB_EXPORT uint32_t sb_rand_pareto(uint32_t a, uint32_t b)
{
    return sb_draw(3, a, b);
}
SB_EXPORT uint32_t sb_rand_unique(void)
{
    struct lapi_thread *t = lapi_current();
    return t ? unique_next(t) : 0;
}
SB_EXPORT double sb_rand_uniform_double(void)
{
    struct lapi_thread *t = lapi_current();
    return t ? rng_double(&t->rng) : 0;
}
/* fmt's '#' a digit, '@' a letter, others kept: strlen(fmt) bytes into
 * buf, no terminating zero (sysbench's contract) */
SB_EXPORT void sb_rand_str(const char *fmt, char *buf)
{
    struct lapi_thread *t = lapi_current();
    if (!t || !fmt || !buf)
        return;
    size_t n = strlen(fmt);
    char small[512], *out = n < sizeof small ? small : xmalloc(n + 1);
    rng_str(&t->rng, fmt, out);
    memcpy(buf, out, n);
    if (out != small)
        free(out);
}

/* Push the sysbench.rand table, its functions bound to thread t (the
 * prelude adds the distributions, over dbscale_rand). */
void lapi_push_rand(lua_State *L, struct lapi_thread *t)
{
    static const luaL_Reg rnd[] = {{"string", r_string},
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
