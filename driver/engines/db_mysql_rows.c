/*
 * db_mysql_rows.c - the MariaDB backend's row path replies: a statement
 * whose reply the caller reads (the Lua scripts' result sets) runs on the
 * same statement state machine as the count path (db_mysql.c, which also
 * starts it), and the machine stores the rows here instead of dropping them.
 *
 * The one idea: a prepared statement's result columns are bound as
 * strings, as its parameters are, so a script fetches the same text a
 * plain query would give it, a row at a time from the stored result when it
 * asks (most of sysbench's SELECTs are never read: no copy, no allocation
 * per row). A column longer than its buffer is fetched again whole
 * (mysql_stmt_fetch_column). A text reply is copied out whole. The state
 * machine calls down into this file; it calls no other file of the
 * backend. Never prints.
 */
#include <stdlib.h>
#include <string.h>

#include "engines/db_mysql_conn.h"
#include "core/util.h"

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
