/*
 * lsql_mysql_stmt.c - a Lua script's prepared statements on MariaDB as the
 * server's own (mysql_stmt_*), as sysbench's mysql driver makes them: the
 * statement is parsed once, each execute sends only the values.
 *
 * The one idea: values arrive as text (param:set formats them) and are
 * bound as strings, which the server converts to the column's type; the
 * result's columns are bound as strings too, so a script fetches the same
 * text a plain query would give it, a row at a time from the stored result
 * when it asks. A column longer than its buffer is fetched again whole
 * (mysql_stmt_fetch_column). Never prints.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/db_mysql_conn.h"
#include "lua/lsql_mysql_conn.h"

void lsql_mysql_stmt_err(struct lsql_conn *c, int id, struct db_error *e)
{
    MYSQL_STMT *st = c->st[id];
    dbm_error(e, mysql_stmt_errno(st), mysql_stmt_error(st));
}

int lsql_mysql_stmt_prepare(struct lsql_conn *c, int id, const char *sql, int np,
                            struct db_error *e)
{
    if (c->st[id])
        mysql_stmt_close(c->st[id]);
    MYSQL_STMT *st = c->st[id] = mysql_stmt_init(c->m);
    if (!st) {
        dbm_error(e, mysql_errno(c->m), "mysql_stmt_init: out of memory");
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
        dbm_error(e, 0, "the statement's placeholders do not match its '?' count");
        mysql_stmt_close(st);
        c->st[id] = NULL;
        return -1;
    }
    my_bool on = 1; /* max_length of each column after store_result: the buffers' sizes */
    mysql_stmt_attr_set(st, STMT_ATTR_UPDATE_MAX_LENGTH, &on);
    return 0;
}

int lsql_mysql_stmt_bind(struct lsql_conn *c, int id, const char *const *vals, int np,
                         struct db_error *e)
{
    if (np > c->npb) {
        c->pb = xrealloc(c->pb, (size_t)np * sizeof *c->pb);
        c->npb = np;
    }
    /* the values are copied: the library may still be sending them after
     * the parameters' buffers were reused (lapi_sql.c's are the loop's) */
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

/* A result's rows left in the statement's stored result, fetched one row
 * at a time when the script asks (most of sysbench's SELECTs are never
 * read): no copy and no allocation per row. The connection's result set
 * is dropped before its statement runs again or is closed (lapi_sql.c), so st
 * outlives it. */
struct mrows {
    MYSQL_STMT *st;
    int nf;
    long row; /* the row in the buffers; -1 = none yet */
    MYSQL_BIND *rb;
    unsigned long *len;
    my_bool *isnull;
    char **whole; /* a column longer than its buffer, fetched again whole */
};

static int bind_rows(struct mrows *m)
{
    MYSQL_RES *meta = mysql_stmt_result_metadata(m->st);
    if (!meta)
        return -1;
    MYSQL_FIELD *f = mysql_fetch_fields(meta);
    m->rb = xcalloc((size_t)m->nf, sizeof *m->rb);
    m->len = xcalloc((size_t)m->nf, sizeof *m->len);
    m->isnull = xcalloc((size_t)m->nf, sizeof *m->isnull);
    m->whole = xcalloc((size_t)m->nf, sizeof *m->whole);
    for (int i = 0; i < m->nf; i++) {
        unsigned long sz = f[i].max_length > 63 ? f[i].max_length + 1 : 64;
        m->rb[i].buffer_type = MYSQL_TYPE_STRING;
        m->rb[i].buffer = xmalloc(sz);
        m->rb[i].buffer_length = sz;
        m->rb[i].length = &m->len[i];
        m->rb[i].is_null = &m->isnull[i];
    }
    mysql_free_result(meta);
    return mysql_stmt_bind_result(m->st, m->rb) ? -1 : 0;
}

static int fetch_to(struct mrows *m, long row)
{
    if (!m->rb && bind_rows(m) < 0)
        return -1;
    if (row != m->row + 1)
        mysql_stmt_data_seek(m->st, (my_ulonglong)row);
    m->row = -2; /* unknown until the fetch succeeds */
    int fr = mysql_stmt_fetch(m->st);
    if (fr != 0 && fr != MYSQL_DATA_TRUNCATED)
        return -1;
    for (int i = 0; i < m->nf; i++) {
        free(m->whole[i]);
        m->whole[i] = NULL;
        if (m->isnull[i] || m->len[i] < m->rb[i].buffer_length)
            continue;
        m->whole[i] = xmalloc(m->len[i] + 1);
        MYSQL_BIND w = {.buffer_type = MYSQL_TYPE_STRING,
                        .buffer = m->whole[i],
                        .buffer_length = m->len[i] + 1};
        mysql_stmt_fetch_column(m->st, &w, (unsigned)i, 0);
    }
    m->row = row;
    return 0;
}

static const char *mrows_value(void *h, long row, int f, size_t *len)
{
    struct mrows *m = h;
    if (m->row != row && fetch_to(m, row) < 0)
        return NULL;
    if (m->isnull[f])
        return NULL;
    *len = m->len[f];
    return m->whole[f] ? m->whole[f] : m->rb[f].buffer;
}

static void mrows_free(void *h)
{
    struct mrows *m = h;
    mysql_stmt_free_result(m->st);
    for (int i = 0; m->rb && i < m->nf; i++) {
        free(m->rb[i].buffer);
        free(m->whole[i]);
    }
    free(m->rb);
    free(m->len);
    free(m->isnull);
    free(m->whole);
    free(m);
}

static const struct lsql_rows mysql_stmt_rows = {mrows_value, mrows_free};

int lsql_mysql_stmt_take(struct lsql_conn *c, int id, struct lsql_result *res, struct db_error *e)
{
    (void)e;
    MYSQL_STMT *st = c->st[id];
    if (res)
        memset(res, 0, sizeof *res);
    unsigned nf = mysql_stmt_field_count(st);
    if (nf == 0) {
        if (res)
            res->affected = (long)mysql_stmt_affected_rows(st);
        return 0;
    }
    long nrows = (long)mysql_stmt_num_rows(st);
    if (!res || nrows == 0) {
        if (res)
            res->nfields = (int)nf;
        mysql_stmt_free_result(st);
        return 0;
    }
    struct mrows *m = xcalloc(1, sizeof *m);
    m->st = st;
    m->nf = (int)nf;
    m->row = -1;
    res->nrows = nrows;
    res->nfields = (int)nf;
    res->h = m;
    res->rows = &mysql_stmt_rows;
    return 0;
}
