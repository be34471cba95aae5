/*
 * test_dbdebug.c - --db-debug's tracing op table over a fake engine: one
 * line per finished statement with its SQL, parameters and outcome (ok, or
 * the engine's code and message), a statement that waits reported when
 * cont() ends it, and the inner engine's answers passed through unchanged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/dbdebug.h"

struct db_conn {
    int calls;
};

static struct db_conn *f_connect(const struct db_target *t, struct db_error *err)
{
    (void)t;
    (void)err;
    return calloc(1, sizeof(struct db_conn));
}

static void f_close(struct db_conn *c)
{
    free(c);
}

static int f_fd(struct db_conn *c)
{
    (void)c;
    return 7;
}

static int f_prepare(struct db_conn *c, int id, const char *sql, int np, struct db_error *e)
{
    (void)c, (void)id, (void)sql, (void)np, (void)e;
    return 0;
}

/* SELECT: done at once; UPDATE: waits, then cont() fails with a deadlock */
static enum db_status f_start(struct db_conn *c, int id, const char *sql, const struct db_param *p,
                              int np, struct db_error *e)
{
    (void)id, (void)p, (void)np, (void)e;
    c->calls++;
    return sql && strncmp(sql, "UPDATE", 6) == 0 ? DB_WAIT_READ : DB_DONE;
}

static enum db_status f_cont(struct db_conn *c, struct db_error *e)
{
    (void)c;
    snprintf(e->code, sizeof e->code, "1213");
    snprintf(e->msg, sizeof e->msg, "Deadlock found");
    e->cls = DB_ERR_RETRY;
    return DB_FAILED;
}

static const struct db_ops fake = {
    .name = "mysql",
    .connect = f_connect,
    .close = f_close,
    .fd = f_fd,
    .prepare = f_prepare,
    .start = f_start,
    .cont = f_cont,
    .auto_id_omitted = 0,
    .schema = "fake-schema",
};

static void test_trace(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    const struct db_ops *ops = dbdebug_ops(&fake, out);
    assert_string_equal(ops->name, "mysql");
    assert_string_equal(ops->schema, "fake-schema");
    struct db_target t = {.host = "h1", .port = 3306};
    struct db_error e = {0};
    struct db_conn *c = ops->connect(&t, &e);
    assert_non_null(c);
    assert_int_equal(ops->fd(c), 7);
    struct db_param p[2] = {{.type = DB_PINT, .i = 42}, {.type = DB_PSTR, .s = "abcdef", .len = 3}};
    assert_int_equal(ops->start(c, 0, "SELECT c FROM sbtest1 WHERE id=?", p, 1, &e), DB_DONE);
    assert_int_equal(ops->start(c, 1, "UPDATE sbtest1 SET c=? WHERE id=?", p + 1, 1, &e),
                     DB_WAIT_READ);
    assert_int_equal(ops->cont(c, &e), DB_FAILED);
    assert_string_equal(e.code, "1213"); /* passed through */
    /* a registered statement is started by id alone: its text is the prepared one */
    assert_int_equal(ops->prepare(c, 2, "DELETE FROM sbtest1 WHERE id=?", 1, &e), 0);
    assert_int_equal(ops->start(c, 2, NULL, p, 1, &e), DB_DONE);
    ops->close(c);
    fclose(out);
    assert_non_null(strstr(buf, "connected to h1 port 3306"));
    assert_non_null(
        strstr(buf, "DEBUG: connection 1: SELECT c FROM sbtest1 WHERE id=? [42] -> ok\n"));
    assert_non_null(strstr(buf, "UPDATE sbtest1 SET c=? WHERE id=? ['abc'] -> error 1213: "
                                "Deadlock found\n"));
    assert_non_null(strstr(buf, "prepare #2 DELETE FROM sbtest1 WHERE id=? -> ok\n"));
    assert_non_null(strstr(buf, "connection 1: DELETE FROM sbtest1 WHERE id=? [42] -> ok\n"));
    /* the wait itself printed nothing: five lines in all */
    int lines = 0;
    for (char *q = buf; *q; q++)
        lines += *q == '\n';
    assert_int_equal(lines, 5);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
