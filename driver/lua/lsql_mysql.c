/*
 * lsql_mysql.c - MariaDB/MySQL for Lua scripts, on Connector/C: blocking
 * (commands other than run) and started-and-stepped with the non-blocking
 * API (mysql_real_query_start / _cont, mysql_store_result_start / _cont)
 * for run's event loops.
 *
 * The idea: every reply is copied out whole (a script may read any cell);
 * a prepared statement with parameters is the server's own
 * (lsql_mysql_stmt.c), one without (BEGIN, COMMIT) is sent as text, as the
 * pgsql half does. Never prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/db_mysql_conn.h"
#include "lua/lsql_mysql_conn.h"

static void seterr(struct db_error *e, MYSQL *m)
{
    dbm_error(e, mysql_errno(m), mysql_error(m));
}

static struct lsql_conn *myl_connect(const struct db_target *t, struct db_error *e)
{
    /* the engine's own setup: option files, MYSQL_* variables, TLS */
    unsigned code;
    MYSQL *m = db_mysql_open(t, 1, &code, e->msg, sizeof e->msg);
    if (!m) {
        e->cls = DB_ERR_FATAL;
        snprintf(e->code, sizeof e->code, "%u", code);
        return NULL;
    }
    struct lsql_conn *c = xcalloc(1, sizeof *c);
    c->m = m;
    return c;
}

static void myl_close(struct lsql_conn *c)
{
    if (!c)
        return;
    for (int i = 0; i < LSQL_MAX_STMTS; i++) {
        free(c->sql[i]);
        if (c->st[i]) /* before the connection it belongs to */
            mysql_stmt_close(c->st[i]);
    }
    mysql_close(c->m);
    sbuf_free(&c->q);
    free(c->pb);
    free(c);
}

/* Copy a stored result (or the affected count when there is none) out. */
static int fill(struct lsql_conn *c, MYSQL_RES *r, struct lsql_result *res, struct db_error *e)
{
    if (!r && mysql_field_count(c->m) != 0) {
        seterr(e, c->m);
        return -1;
    }
    if (res) {
        memset(res, 0, sizeof *res);
        res->affected = r ? 0 : (long)mysql_affected_rows(c->m);
    }
    if (!r)
        return 0;
    if (res) {
        res->nrows = (long)mysql_num_rows(r);
        res->nfields = (int)mysql_num_fields(r);
        long n = res->nrows * res->nfields;
        res->cell = xcalloc(n ? (size_t)n : 1, sizeof *res->cell);
        res->len = xcalloc(n ? (size_t)n : 1, sizeof *res->len);
        MYSQL_ROW row;
        for (long i = 0; (row = mysql_fetch_row(r)); i++) {
            unsigned long *l = mysql_fetch_lengths(r);
            for (int f = 0; f < res->nfields; f++) {
                if (!row[f])
                    continue;
                char *v = xmalloc(l[f] + 1);
                memcpy(v, row[f], l[f]);
                v[l[f]] = '\0';
                res->cell[i * res->nfields + f] = v;
                res->len[i * res->nfields + f] = l[f];
            }
        }
    }
    mysql_free_result(r);
    return 0;
}

static int run(struct lsql_conn *c, const char *sql, size_t len, struct lsql_result *res,
               struct db_error *e)
{
    if (mysql_real_query(c->m, sql, len) != 0) {
        seterr(e, c->m);
        return -1;
    }
    return fill(c, mysql_store_result(c->m), res, e);
}

static int myl_query(struct lsql_conn *c, const char *sql, struct lsql_result *res,
                     struct db_error *e)
{
    return run(c, sql, strlen(sql), res, e);
}

static int myl_prepare(struct lsql_conn *c, int id, const char *sql, int nparams,
                       struct db_error *e)
{
    free(c->sql[id]);
    c->sql[id] = NULL;
    if (nparams > 0)
        return lsql_mysql_stmt_prepare(c, id, sql, nparams, e);
    if (c->st[id]) {
        mysql_stmt_close(c->st[id]);
        c->st[id] = NULL;
    }
    c->sql[id] = xstrdup(sql);
    return 0;
}

static int myl_execute(struct lsql_conn *c, int id, const char *const *vals, int np,
                       struct lsql_result *res, struct db_error *e)
{
    if (c->sql[id])
        return run(c, c->sql[id], strlen(c->sql[id]), res, e);
    MYSQL_STMT *st = c->st[id];
    if (lsql_mysql_stmt_bind(c, id, vals, np, e) < 0)
        return -1;
    if (mysql_stmt_execute(st) != 0 ||
        (mysql_stmt_field_count(st) > 0 && mysql_stmt_store_result(st) != 0)) {
        lsql_mysql_stmt_err(c, id, e);
        return -1;
    }
    return lsql_mysql_stmt_take(c, id, res, e);
}

static void myl_unprepare(struct lsql_conn *c, int id)
{
    free(c->sql[id]);
    c->sql[id] = NULL;
    if (c->st[id])
        mysql_stmt_close(c->st[id]);
    c->st[id] = NULL;
}

/* ---- stepped: run's event loops ---- */

static int waits(int status)
{
    return status & MYSQL_WAIT_WRITE ? LSQL_WAIT_WRITE : LSQL_WAIT_READ;
}

static int done(int rc, int *rcp)
{
    *rcp = rc;
    return LSQL_DONE;
}

/* Go on from the phase that just finished a call (status 0) or wait for
 * what the library asks. err: that call's error flag. */
static int advance(struct lsql_conn *c, int err, struct lsql_result *res, struct db_error *e,
                   int *rc)
{
    if (c->status)
        return waits(c->status);
    int ph = c->phase;
    c->phase = 0;
    if (ph == 1 || ph == 2) {
        if (err) {
            seterr(e, c->m);
            return done(-1, rc);
        }
        if (ph == 1) {
            MYSQL_RES *r = NULL;
            c->phase = 2;
            c->status = mysql_store_result_start(&r, c->m);
            if (c->status)
                return waits(c->status);
            c->phase = 0;
            return done(fill(c, r, res, e), rc);
        }
        return done(fill(c, c->r, res, e), rc);
    }
    if (err) {
        lsql_mysql_stmt_err(c, c->cur, e);
        return done(-1, rc);
    }
    MYSQL_STMT *st = c->st[c->cur];
    if (ph == 3 && mysql_stmt_field_count(st) > 0) {
        int ret = 0;
        c->phase = 4;
        c->status = mysql_stmt_store_result_start(&ret, st);
        return advance(c, ret, res, e, rc);
    }
    return done(lsql_mysql_stmt_take(c, c->cur, res, e), rc);
}

static int start(struct lsql_conn *c, struct lsql_result *res, struct db_error *e, int *rc)
{
    int err = 0;
    c->phase = 1;
    /* c->q holds the text until the statement is done: the library may
     * still be writing it after _start returns */
    c->status = mysql_real_query_start(&err, c->m, c->q.s ? c->q.s : "", c->q.len);
    return advance(c, err, res, e, rc);
}

static int mya_send_query(struct lsql_conn *c, const char *sql, struct lsql_result *res,
                          struct db_error *e, int *rc)
{
    c->q.len = 0;
    sbuf_add(&c->q, sql, strlen(sql));
    return start(c, res, e, rc);
}

static int mya_send_execute(struct lsql_conn *c, int id, const char *const *vals, int np,
                            struct lsql_result *res, struct db_error *e, int *rc)
{
    if (c->sql[id])
        return mya_send_query(c, c->sql[id], res, e, rc);
    if (lsql_mysql_stmt_bind(c, id, vals, np, e) < 0)
        return done(-1, rc);
    int err = 0;
    c->cur = id;
    c->phase = 3;
    c->status = mysql_stmt_execute_start(&err, c->st[id]);
    return advance(c, err, res, e, rc);
}

static int mya_step(struct lsql_conn *c, struct lsql_result *res, struct db_error *e, int *rc)
{
    /* hand back only the event waited for: a MYSQL_WAIT_TIMEOUT bit would
     * tell the library its timeout had passed */
    int ready = c->status & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE | MYSQL_WAIT_EXCEPT);
    int err = 0;
    switch (c->phase) {
    case 1:
        c->status = mysql_real_query_cont(&err, c->m, ready);
        break;
    case 2:
        c->r = NULL;
        c->status = mysql_store_result_cont(&c->r, c->m, ready);
        err = !c->r && mysql_errno(c->m) != 0;
        break;
    case 3:
        c->status = mysql_stmt_execute_cont(&err, c->st[c->cur], ready);
        break;
    case 4:
        c->status = mysql_stmt_store_result_cont(&err, c->st[c->cur], ready);
        break;
    default:
        return done(0, rc);
    }
    return advance(c, err, res, e, rc);
}

static int mya_fd(struct lsql_conn *c)
{
    return (int)mysql_get_socket(c->m);
}

const struct lsql_ops lsql_mysql_ops = {
    .name = "mysql",
    .connect = myl_connect,
    .close = myl_close,
    .query = myl_query,
    .prepare = myl_prepare,
    .execute = myl_execute,
    .unprepare = myl_unprepare,
    .send_query = mya_send_query,
    .send_execute = mya_send_execute,
    .step = mya_step,
    .fd = mya_fd,
};
