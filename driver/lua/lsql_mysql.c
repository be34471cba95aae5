/*
 * lsql_mysql.c - blocking MariaDB/MySQL for Lua scripts, on Connector/C.
 *
 * The idea: a prepared statement is kept as its '?' text and each execute
 * sends it with the values quoted in (mysql_real_escape_string), so every
 * statement returns a full text result set a script can fetch, and the
 * server's Com_* counters see the same statements. Never prints.
 */
#include <mysql.h>
#include <mysqld_error.h>
#include <errmsg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_mysql_conn.h"
#include "lsql.h"
#include "util.h"

struct lsql_conn {
    MYSQL *m;
    char *sql[LSQL_MAX_STMTS];
    struct sbuf q;
};

static void seterr(struct lsql_error *e, MYSQL *m)
{
    unsigned n = mysql_errno(m);
    switch (n) {
    case ER_LOCK_DEADLOCK:       /* 1213 */
    case ER_LOCK_WAIT_TIMEOUT:   /* 1205 */
    case 1020:                   /* record changed since last read */
        e->cls = LSQL_IGNORABLE; /* sysbench's default --mysql-ignore-errors */
        break;
    case CR_SERVER_GONE_ERROR: /* 2006 */
    case CR_SERVER_LOST:       /* 2013 */
    case CR_CONNECTION_ERROR:
    case ER_CONNECTION_KILLED:
    case ER_SERVER_SHUTDOWN:
        e->cls = LSQL_LOST;
        break;
    default:
        e->cls = LSQL_FATAL;
    }
    snprintf(e->code, sizeof e->code, "%u", n);
    snprintf(e->msg, sizeof e->msg, "%s", mysql_error(m));
}

static struct lsql_conn *myl_connect(const struct db_target *t, struct lsql_error *e)
{
    /* the engine's own setup: option files, MYSQL_* variables, TLS */
    unsigned code;
    MYSQL *m = db_mysql_open(t, 0, &code, e->msg, sizeof e->msg);
    if (!m) {
        e->cls = LSQL_FATAL;
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
    mysql_close(c->m);
    for (int i = 0; i < LSQL_MAX_STMTS; i++)
        free(c->sql[i]);
    sbuf_free(&c->q);
    free(c);
}

static int run(struct lsql_conn *c, const char *sql, size_t len, struct lsql_result *res,
               struct lsql_error *e)
{
    if (mysql_real_query(c->m, sql, len) != 0) {
        seterr(e, c->m);
        return -1;
    }
    MYSQL_RES *r = mysql_store_result(c->m);
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

static int myl_query(struct lsql_conn *c, const char *sql, struct lsql_result *res,
                     struct lsql_error *e)
{
    return run(c, sql, strlen(sql), res, e);
}

static int myl_prepare(struct lsql_conn *c, int id, const char *sql, int nparams,
                       struct lsql_error *e)
{
    (void)nparams;
    (void)e;
    free(c->sql[id]);
    c->sql[id] = xstrdup(sql);
    return 0;
}

static int myl_execute(struct lsql_conn *c, int id, const char *const *vals, int np,
                       struct lsql_result *res, struct lsql_error *e)
{
    c->q.len = 0;
    int k = 0;
    for (const char *p = c->sql[id]; *p; p++) {
        if (*p != '?' || k >= np) {
            sbuf_add(&c->q, p, 1);
            continue;
        }
        const char *v = vals[k++];
        if (!v) {
            sbuf_add(&c->q, "NULL", 4);
            continue;
        }
        size_t l = strlen(v);
        char *esc = xmalloc(2 * l + 3);
        esc[0] = '\'';
        unsigned long el = mysql_real_escape_string(c->m, esc + 1, v, l);
        esc[el + 1] = '\'';
        sbuf_add(&c->q, esc, el + 2);
        free(esc);
    }
    sbuf_add(&c->q, "", 0);
    return run(c, c->q.s ? c->q.s : "", c->q.len, res, e);
}

static void myl_unprepare(struct lsql_conn *c, int id)
{
    free(c->sql[id]);
    c->sql[id] = NULL;
}

const struct lsql_ops lsql_mysql_ops = {
    .name = "mysql",
    .connect = myl_connect,
    .close = myl_close,
    .query = myl_query,
    .prepare = myl_prepare,
    .execute = myl_execute,
    .unprepare = myl_unprepare,
};
