/*
 * db_mysql_rows.c - the MariaDB backend's row path: a statement whose reply
 * the caller reads (the Lua scripts' result sets), on the same statement
 * state machine as the count path (db_mysql.c), which stores the rows here
 * instead of dropping them.
 *
 * The one idea: values arrive as text and are bound as strings, which the
 * server converts to the column's type; a prepared statement's result
 * columns are bound as strings too, so a script fetches the same text a
 * plain query would give it, a row at a time from the stored result when it
 * asks (most of sysbench's SELECTs are never read: no copy, no allocation
 * per row). A column longer than its buffer is fetched again whole
 * (mysql_stmt_fetch_column). A text reply is copied out whole. Never prints.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/db_mysql_conn.h"
#include "core/util.h"

/* Bind vals to s's parameters, as the count path binds (db_mysql.c): the
 * bound buffers are refilled, and bound again only when a type (string or
 * NULL) or a buffer changes, since a new bind resends the types. */
static int bind_text(struct dbm_stmt *s, const char *const *vals, int np, struct db_error *err)
{
    int rebind = !s->bound;
    for (int i = 0; i < np; i++) {
        if (!vals[i]) {
            rebind |= s->bind[i].buffer_type != MYSQL_TYPE_NULL;
            continue;
        }
        size_t n = strlen(vals[i]);
        struct dbm_buf *b = &s->strs[i];
        if (n + 1 > b->cap) {
            dbm_reserve(b, n + 1);
            rebind = 1;
        }
        memcpy(b->s, vals[i], n);
        s->lens[i] = n;
        rebind |= s->bind[i].buffer_type != MYSQL_TYPE_STRING;
    }
    if (!rebind || np == 0)
        return 0;
    s->bound = 0;
    for (int i = 0; i < np; i++) {
        MYSQL_BIND *bd = &s->bind[i];
        memset(bd, 0, sizeof *bd);
        if (!vals[i]) {
            bd->buffer_type = MYSQL_TYPE_NULL;
            continue;
        }
        bd->buffer_type = MYSQL_TYPE_STRING;
        bd->buffer = s->strs[i].s;
        bd->buffer_length = (unsigned long)s->strs[i].cap;
        bd->length = &s->lens[i];
    }
    if (mysql_stmt_bind_param(s->st, s->bind)) {
        dbm_error(err, mysql_stmt_errno(s->st), mysql_stmt_error(s->st));
        return -1;
    }
    s->bound = 1;
    return 0;
}

enum db_status dbm_start_rows(struct db_conn *c, int id, const char *sql, const char *const *vals,
                              int np, struct db_result *res, struct db_error *err)
{
    memset(res, 0, sizeof *res);
    if (c->step != DBM_IDLE || c->bulk_inflight) {
        dbm_usage(err, "mysql: a statement while another is running");
        return DB_FAILED;
    }
    c->cur = NULL;
    struct dbm_stmt *s = id >= 0 && id < c->nstmts ? &c->stmts[id] : NULL;
    if (id >= 0 && (!s || (!s->st && !s->sql))) {
        dbm_usage(err, "mysql: a statement that was not prepared");
        return DB_FAILED;
    }
    if (s && np != s->nparams) {
        dbm_usage(err, "mysql: a statement's parameters are not the number it was prepared with");
        return DB_FAILED;
    }
    if (s && s->st) {
        if (bind_text(s, vals, np, err) < 0)
            return DB_FAILED;
        c->cur = s->st;
        c->step = DBM_EXEC;
    } else {
        if (np > 0) {
            dbm_usage(err, "mysql: the row path sends parameters only to prepared statements "
                           "(ps on)");
            return DB_FAILED;
        }
        const char *text = s ? s->sql : sql;
        c->q.len = 0;
        dbm_add(&c->q, text, strlen(text));
        c->step = DBM_SEND;
    }
    c->res = res;
    enum db_status st = dbm_drive(c, 0, err);
    return st == DB_DONE ? dbm_finish(c) : st;
}

void dbm_rows_copy(MYSQL_RES *r, struct db_result *res)
{
    db_result_free(res); /* an earlier result of a multi-statement reply */
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
    mysql_free_result(r);
}

/* A prepared statement's rows left in its stored result. The caller frees
 * the result before the statement runs again or is closed, so st outlives
 * it. */
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

static const struct db_rows mysql_stmt_rows = {mrows_value, mrows_free};

void dbm_rows_keep(MYSQL_STMT *st, struct db_result *res)
{
    unsigned nf = mysql_stmt_field_count(st);
    long nrows = (long)mysql_stmt_num_rows(st);
    res->nfields = (int)nf;
    if (nrows == 0) {
        mysql_stmt_free_result(st);
        return;
    }
    struct mrows *m = xcalloc(1, sizeof *m);
    m->st = st;
    m->nf = (int)nf;
    m->row = -1;
    res->nrows = nrows;
    res->h = m;
    res->rows = &mysql_stmt_rows;
}
