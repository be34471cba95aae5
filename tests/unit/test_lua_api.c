/*
 * test_lua_api.c - sysbench's Lua API in one state (driver/lua/lapi_state.c),
 * without a server: sysbench.rand draws the built-in mixes' numbers (the
 * same generator, seeded per connection as worker.c seeds its connections),
 * sysbench.opt carries typed values under '_' names, sysbench's constants
 * have sysbench's values, and a script's error names its file and line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <lauxlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lua/lapi.h"
#include "client/oltp.h"

static char path[64];

static void write_script(const char *text)
{
    snprintf(path, sizeof path, "/tmp/dbscale-test-lua-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

static void base(struct lapi_script *s, struct rng_dist *d)
{
    memset(s, 0, sizeof *s);
    s->path = path;
    s->command = "run";
    s->ops = &db_pgsql_ops;
    s->threads = 4;
    s->seed = 12345;
    assert_int_equal(rng_dist_init(d, "special", 12, 1, 75, 0.2, 0.8), 0);
    s->dist = d;
    static const char *const kinds[] = {"uniform", "gaussian", "special", "pareto", "zipfian"};
    for (int i = 0; i < 5; i++)
        assert_int_equal(rng_dist_init(&s->kinds[i], kinds[i], 12, 1, 75, 0.2, 0.8), 0);
}

static double global_num(lua_State *L, const char *name)
{
    lua_getglobal(L, name);
    double v = lua_tonumber(L, -1);
    lua_pop(L, 1);
    return v;
}

/* Connection 2 of a scripted run draws what connection 2 of a built-in run
 * draws with the same --rand-seed: worker.c uses stream index + 1. */
static void test_rand_is_the_builtin_generator(void **st)
{
    (void)st;
    write_script("draws = {}\n"
                 "for i = 1, 50 do draws[i] = sysbench.rand.default(1, 10000) end\n");
    struct lapi_script s;
    struct rng_dist d;
    base(&s, &d);
    struct lapi_thread t = {.tid = 2, .s = &s};
    lapi_thread_seed(&t, &s, 2);
    char err[512];
    lua_State *L = lapi_open(&t, err, sizeof err);
    assert_non_null(L);
    struct rng r;
    rng_seed(&r, 12345, 3);
    lua_getglobal(L, "draws");
    for (int i = 1; i <= 50; i++) {
        lua_rawgeti(L, -1, i);
        assert_int_equal((uint32_t)lua_tonumber(L, -1), rng_dist(&d, &r, 1, 10000));
        lua_pop(L, 1);
    }
    lua_close(L);
    unlink(path);
}

static void test_opt_types_and_constants(void **st)
{
    (void)st;
    write_script("size = sysbench.opt.table_size\n"
                 "trx = sysbench.opt.skip_trx and 1 or 0\n"
                 "eng = sysbench.opt.mysql_storage_engine == 'innodb' and 1 or 0\n"
                 "varchar = sysbench.sql.type.VARCHAR\n"
                 "fatal = sysbench.sql.error.FATAL\n"
                 "restart = sysbench.error.RESTART_EVENT\n"
                 "tid = sysbench.tid\n"
                 "parallel = sysbench.cmdline.PARALLEL_COMMAND and 1 or 0\n");
    struct opts o;
    opts_init(&o, oltp_optdefs(), oltp_noptdefs());
    char err[512];
    assert_int_equal(opts_set(&o, "table-size", "77", "test", err, sizeof err), 0);
    assert_int_equal(opts_set(&o, "skip-trx", "on", "test", err, sizeof err), 0);
    struct lapi_script s;
    struct rng_dist d;
    base(&s, &d);
    s.o = &o;
    struct lapi_thread t = {.tid = 1, .s = &s};
    lua_State *L = lapi_open(&t, err, sizeof err);
    assert_non_null(L);
    assert_int_equal(global_num(L, "size"), 77);
    assert_int_equal(global_num(L, "trx"), 1);
    assert_int_equal(global_num(L, "eng"), 1);
    assert_int_equal(global_num(L, "varchar"), 12);
    assert_int_equal(global_num(L, "fatal"), 2);
    assert_int_equal(global_num(L, "restart"), 1);
    assert_int_equal(global_num(L, "tid"), 1);
    assert_int_equal(global_num(L, "parallel"), 1);
    lua_close(L);
    opts_free(&o);
    unlink(path);
}

static void test_error_names_file_and_line(void **st)
{
    (void)st;
    write_script("local x = 1\n\nfunction event()\n  return sysbench.nothing.here\nend\n");
    struct lapi_script s;
    struct rng_dist d;
    base(&s, &d);
    struct lapi_thread t = {.tid = 0, .s = &s};
    char err[512], want[128];
    lua_State *L = lapi_open(&t, err, sizeof err);
    assert_non_null(L);
    assert_int_equal(lapi_call(L, "event", 1, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:4:", path);
    assert_non_null(strstr(err, want));
    assert_int_equal(lapi_call(L, "no_such_function", 0, err, sizeof err), 1);
    lua_close(L);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rand_is_the_builtin_generator),
        cmocka_unit_test(test_opt_types_and_constants),
        cmocka_unit_test(test_error_names_file_and_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
