/*
 * lsql_mysql_stmt.c - a Lua script's prepared statements on MariaDB as the
 * server's own (mysql_stmt_*), as sysbench's mysql driver makes them: the
 * statement is parsed once, each execute sends only the values.
 *
 * The one idea: values arrive as text (param:set formats them) and are
 * bound as strings, which the server converts to the column's type; the
 * result's columns are bound as strings too, so a script fetches the same
 * text a plain query would give it. A column longer than its buffer is
 * fetched again whole (mysql_stmt_fetch_column). Never prints.
 */
#include <stdlib.h>
#include <string.h>

#include "lsql_mysql_conn.h"

void lsql_mysql_stmt_err(struct lsql_conn *c, int id, struct lsql_error *e)
{
    MYSQL_STMT *st = c->st[id];
    lsql_mysql_seterr(e, mysql_stmt_errno(st), mysql_stmt_error(st));
}

int lsql_mysql_stmt_prepare(struct lsql_conn *c, int id, const char *sql, int np,
                            struct lsql_error *e)
{
    if (c->st[id])
        mysql_stmt_close(c->st[id]);
    MYSQL_STMT *st = c->st[id] = mysql_stmt_init(c->m);
    if (!st) {
        lsql_mysql_seterr(e, mysql_errno(c->m), "mysql_stmt_init: out of memory");
        return -1;
    }
    if (mysql_stmt_prepare(st, sql, (unsigned long)strlen(sql)) != 0) {
        lsql_mysql_stmt_err(c, id, e);
        mysql_stmt_close(st);
        c->st[id] = NULL;
        return -1;
    }
    if ((int)mysql_stmt_param_count(st) != np) {
        /* a '?' inside a string literal: sysbench counts them the same way */
        lsql_mysql_seterr(e, 0, "the statement's placeholders do not match its '?' count");
        mysql_stmt_close(st);
        c->st[id] = NULL;
        return -1;
    }
    my_bool on = 1; /* max_length of each column after store_result: the buffers' sizes */
    mysql_stmt_attr_set(st, STMT_ATTR_UPDATE_MAX_LENGTH, &on);
    return 0;
}

int lsql_mysql_stmt_bind(struct lsql_conn *c, int id, const char *const *vals, int np,
                         struct lsql_error *e)
{
    if (np > c->npb) {
        c->pb = xrealloc(c->pb, (size_t)np * sizeof *c->pb);
        c->npb = np;
    }
    /* the values are copied: the library may still be sending them after
     * the Lua call that passed them has yielded */
    c->q.len = 0;
    size_t *off = np ? xcalloc((size_t)np, sizeof *off) : NULL;
    for (int i = 0; i < np; i++) {
        off[i] = c->q.len;
        if (vals[i])
            sbuf_add(&c->q, vals[i], strlen(vals[i]) + 1);
    }
    memset(c->pb, 0, (size_t)np * sizeof *c->pb);
    for (int i = 0; i < np; i++) {
        MYSQL_BIND *b = &c->pb[i];
        if (!vals[i]) {
            b->buffer_type = MYSQL_TYPE_NULL;
            continue;
        }
        b->buffer_type = MYSQL_TYPE_STRING;
        b->buffer = c->q.s + off[i];
        b->buffer_length = (unsigned long)strlen(c->q.s + off[i]);
    }
    free(off);
    if (mysql_stmt_bind_param(c->st[id], c->pb) != 0) {
        lsql_mysql_stmt_err(c, id, e);
        return -1;
    }
    return 0;
}

static int take_rows(MYSQL_STMT *st, MYSQL_RES *meta, struct lsql_result *res)
{
    int nf = (int)mysql_num_fields(meta);
    MYSQL_FIELD *f = mysql_fetch_fields(meta);
    MYSQL_BIND *rb = xcalloc((size_t)nf, sizeof *rb);
    unsigned long *len = xcalloc((size_t)nf, sizeof *len);
    my_bool *isnull = xcalloc((size_t)nf, sizeof *isnull);
    for (int i = 0; i < nf; i++) {
        unsigned long sz = f[i].max_length > 63 ? f[i].max_length + 1 : 64;
        rb[i].buffer_type = MYSQL_TYPE_STRING;
        rb[i].buffer = xmalloc(sz);
        rb[i].buffer_length = sz;
        rb[i].length = &len[i];
        rb[i].is_null = &isnull[i];
    }
    int rc = mysql_stmt_bind_result(st, rb);
    res->nrows = (long)mysql_stmt_num_rows(st);
    res->nfields = nf;
    long n = res->nrows * nf;
    res->cell = xcalloc(n ? (size_t)n : 1, sizeof *res->cell);
    res->len = xcalloc(n ? (size_t)n : 1, sizeof *res->len);
    for (long r = 0; rc == 0 && r < res->nrows; r++) {
        int fr = mysql_stmt_fetch(st);
        if (fr != 0 && fr != MYSQL_DATA_TRUNCATED)
            break;
        for (int i = 0; i < nf; i++) {
            if (isnull[i])
                continue;
            char *v = xmalloc(len[i] + 1);
            if (len[i] < rb[i].buffer_length) {
                memcpy(v, rb[i].buffer, len[i]);
            } else { /* longer than max_length said: fetch it whole */
                MYSQL_BIND whole = {
                    .buffer_type = MYSQL_TYPE_STRING, .buffer = v, .buffer_length = len[i] + 1};
                mysql_stmt_fetch_column(st, &whole, (unsigned)i, 0);
            }
            v[len[i]] = '\0';
            res->cell[r * nf + i] = v;
            res->len[r * nf + i] = len[i];
        }
    }
    for (int i = 0; i < nf; i++)
        free(rb[i].buffer);
    free(rb);
    free(len);
    free(isnull);
    return rc;
}

int lsql_mysql_stmt_take(struct lsql_conn *c, int id, struct lsql_result *res, struct lsql_error *e)
{
    MYSQL_STMT *st = c->st[id];
    if (res)
        memset(res, 0, sizeof *res);
    if (mysql_stmt_field_count(st) == 0) {
        if (res)
            res->affected = (long)mysql_stmt_affected_rows(st);
        return 0;
    }
    MYSQL_RES *meta = mysql_stmt_result_metadata(st);
    int rc = 0;
    if (!meta) {
        lsql_mysql_stmt_err(c, id, e);
        rc = -1;
    } else if (res && take_rows(st, meta, res) != 0) {
        lsql_mysql_stmt_err(c, id, e);
        lsql_result_free(res);
        rc = -1;
    }
    if (meta)
        mysql_free_result(meta);
    mysql_stmt_free_result(st);
    return rc;
}
