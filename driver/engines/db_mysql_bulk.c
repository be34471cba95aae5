/*
 * db_mysql_bulk.c - the MariaDB backend's blocking paths: the bulk load that
 * prepare uses and the one-value admin query. Neither is on the measured
 * hot path; the statement state machine is in db_mysql.c.
 *
 * The one idea of the bulk load: two buffers, so the next multi-row INSERT
 * is formatted while the server executes the previous one.
 */
#include "engines/db.h"
#include "engines/db_mysql_conn.h"
#include "core/util.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

/* ---- bulk load ----
 * Two buffers: while the server executes one multi-row INSERT (sent with
 * the non-blocking API), the next one is built in the other buffer, so on a
 * small machine client formatting overlaps server work. The load as a whole
 * is blocking: bulk_end() returns after the last INSERT has finished. */

/* Let the INSERT in flight progress; block (poll) only when wait is set. */
static int dbm_bulk_pump(struct db_conn *c, int wait, struct db_error *err)
{
    while (c->bulk_inflight) {
        struct pollfd pfd = {.fd = dbm_fd(c),
                             .events = (c->wait & MYSQL_WAIT_READ) ? POLLIN : POLLOUT};
        int n = poll(&pfd, 1, wait ? -1 : 0);
        if (n < 0 && errno != EINTR) {
            dbm_seterr(err, DB_ERR_RECONNECT, 0, strerror(errno));
            c->bulk_inflight = 0;
            return -1;
        }
        if (n <= 0) {
            if (!wait)
                return 0;
            continue;
        }
        int r = 0, w = mysql_real_query_cont(&r, c->m, c->wait);
        if (w) {
            c->wait = w & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE);
            continue;
        }
        c->bulk_inflight = 0;
        if (r) {
            dbm_conn_err(c, err);
            return -1;
        }
    }
    return 0;
}

/* Send the buffer being built (after the previous INSERT finished) and
 * switch to the other one. */
static int dbm_bulk_flush(struct db_conn *c, struct db_error *err)
{
    if (dbm_bulk_pump(c, 1, err))
        return -1;
    struct dbm_buf *b = &c->bulk[c->bulk_cur];
    if (c->bulk_rows == 0)
        return 0;
    c->bulk_rows = 0;
    c->bulk_cur ^= 1;
    c->bulk[c->bulk_cur].len = c->bulk_head;
    int r = 0, w = mysql_real_query_start(&r, c->m, b->s, b->len);
    if (w) {
        c->wait = w & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE);
        c->bulk_inflight = 1;
        return 0;
    }
    if (r) {
        dbm_conn_err(c, err);
        return -1;
    }
    return 0;
}

int dbm_bulk_begin(struct db_conn *c, const char *table, const char *cols, struct db_error *err)
{
    if (c->step != DBM_IDLE || c->bulk_inflight) {
        dbm_usage(err, "mysql: bulk load while a statement is running");
        return -1;
    }
    c->bulk_limit = DBM_BULK_BYTES;
    if (!mysql_query(c->m, "SELECT @@max_allowed_packet")) {
        MYSQL_RES *res = mysql_store_result(c->m);
        MYSQL_ROW row = res ? mysql_fetch_row(res) : NULL;
        if (row && row[0]) {
            size_t max = (size_t)strtoull(row[0], NULL, 10) / 2;
            if (max >= 4096 && max < c->bulk_limit)
                c->bulk_limit = max;
        }
        if (res)
            mysql_free_result(res);
    }
    for (int i = 0; i < 2; i++) {
        struct dbm_buf *b = &c->bulk[i];
        b->len = 0;
        dbm_add(b, "INSERT INTO ", 12);
        dbm_add(b, table, strlen(table));
        if (cols && *cols) {
            dbm_add(b, "(", 1);
            dbm_add(b, cols, strlen(cols));
            dbm_add(b, ")", 1);
        }
        dbm_add(b, " VALUES ", 8);
        dbm_reserve(b, c->bulk_limit + 4096);
        c->bulk_head = b->len;
    }
    c->bulk_cur = 0;
    c->bulk_rows = 0;
    return 0;
}

/* A plain decimal integer that reads back the same when unquoted. */
static int dbm_is_int(const char *v)
{
    const char *p = v + (*v == '-');
    if (!*p || (p[0] == '0' && p[1]))
        return 0;
    for (; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    return p - v <= 18;
}

/* Printable ASCII without quote or backslash needs no escaping in any
 * ASCII-compatible client character set. */
static int dbm_is_plain(const char *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)v[i];
        if (ch < 0x20 || ch >= 0x7f || ch == '\'' || ch == '\\' || ch == '"')
            return 0;
    }
    return 1;
}

int dbm_bulk_row(struct db_conn *c, const char *const *vals, int nvals, struct db_error *err)
{
    if (!c->bulk_head) {
        dbm_usage(err, "mysql: bulk_row() before bulk_begin()");
        return -1;
    }
    struct dbm_buf *b = &c->bulk[c->bulk_cur];
    dbm_add(b, c->bulk_rows ? ",(" : "(", c->bulk_rows ? 2 : 1);
    for (int i = 0; i < nvals; i++) {
        if (i)
            dbm_add(b, ",", 1);
        size_t n = vals[i] ? strlen(vals[i]) : 0;
        if (!vals[i]) {
            dbm_add(b, "NULL", 4);
        } else if (dbm_is_int(vals[i])) {
            dbm_add(b, vals[i], n);
        } else if (dbm_is_plain(vals[i], n)) {
            dbm_reserve(b, n + 2);
            b->s[b->len] = '\'';
            memcpy(b->s + b->len + 1, vals[i], n);
            b->s[b->len + n + 1] = '\'';
            b->len += n + 2;
            b->s[b->len] = '\0';
        } else {
            dbm_add_quoted(c, b, vals[i], n);
        }
    }
    dbm_add(b, ")", 1);
    c->bulk_rows++;
    if (b->len >= c->bulk_limit)
        return dbm_bulk_flush(c, err);
    /* Keep a long INSERT's write and reply moving without waiting. */
    if (c->bulk_inflight && (c->bulk_rows & 15) == 0)
        return dbm_bulk_pump(c, 0, err);
    return 0;
}

int dbm_bulk_end(struct db_conn *c, struct db_error *err)
{
    int r = dbm_bulk_flush(c, err);
    if (dbm_bulk_pump(c, 1, r ? &(struct db_error){0} : err))
        r = -1;
    c->bulk_head = 0;
    c->bulk_rows = 0;
    return r;
}

/* ---- admin ---- */

char *dbm_query_value(struct db_conn *c, const char *sql, struct db_error *err)
{
    if (c->step != DBM_IDLE || c->bulk_inflight) {
        dbm_usage(err, "mysql: query_value() while a statement is running");
        return NULL;
    }
    if (mysql_real_query(c->m, sql, strlen(sql))) {
        dbm_conn_err(c, err);
        return NULL;
    }
    char *val = NULL;
    MYSQL_RES *res = mysql_store_result(c->m);
    if (res) {
        MYSQL_ROW row = mysql_fetch_row(res);
        unsigned long *len = row ? mysql_fetch_lengths(res) : NULL;
        unsigned last = mysql_num_fields(res) ? mysql_num_fields(res) - 1 : 0;
        if (row && row[last] && len) {
            val = xmalloc(len[last] + 1);
            memcpy(val, row[last], len[last]);
            val[len[last]] = '\0';
        }
        mysql_free_result(res);
    } else if (mysql_field_count(c->m) > 0) {
        dbm_conn_err(c, err);
        return NULL;
    }
    /* Drain further results (multi-statement text, procedures). */
    while (mysql_more_results(c->m)) {
        int r = mysql_next_result(c->m);
        if (r > 0) {
            dbm_conn_err(c, err);
            free(val);
            return NULL;
        }
        if (r < 0)
            break;
        MYSQL_RES *more = mysql_store_result(c->m);
        if (more)
            mysql_free_result(more);
    }
    return val ? val : xstrdup("");
}
