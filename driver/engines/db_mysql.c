/*
 * db_mysql.c - the MariaDB/MySQL backend behind struct db_ops (db.h), on
 * MariaDB Connector/C.
 *
 * The one idea: Connector/C's non-blocking API (MYSQL_OPT_NONBLOCK, the
 * FOO_start/FOO_cont pairs) runs each library call in a coroutine that yields
 * whenever the socket would block. A statement is a short chain of such calls
 * (execute -> free result -> next result), so each connection
 * keeps one small state machine: start() begins the first call, cont() resumes
 * the suspended one and moves on to the next until the whole reply is read.
 * If everything finishes inside start() (the reply was already there),
 * start() returns DB_DONE, as cont() would. A text statement is sent with
 * mysql_send_query and its reply read with mysql_read_query_result only once
 * the loop says the socket is readable: the one-call mysql_real_query reads
 * straight after sending, and that read fails (EAGAIN) for almost every OLTP
 * statement, a wasted system call each. A prepared statement's execute has
 * no such split in Connector/C's API and pays that read. The bulk load and
 * the blocking admin query live in db_mysql_bulk.c. The row path
 * (dbm_start_rows) starts here beside start(): its values arrive as text and
 * are bound as strings, which the server converts to the column's type; the
 * machine hands its reply to db_mysql_rows.c to keep.
 *
 * It must never print, never block in start()/cont(), never leave result rows
 * unread on the socket after DB_DONE, and never put the password in a message.
 */
#include "engines/db.h"
#include "engines/db_mysql_conn.h"
#include "core/util.h"

#include <mysql.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers (the classifier: db_mysql_error.c; buffers: db_mysql_buf.c) ---- */

static void dbm_stmt_err(MYSQL_STMT *st, struct db_error *err)
{
    dbm_error(err, mysql_stmt_errno(st), mysql_stmt_error(st));
}

static void dbm_add_int(struct dbm_buf *b, long long v)
{
    char tmp[24];
    int n = snprintf(tmp, sizeof tmp, "%lld", v);
    dbm_add(b, tmp, (size_t)n);
}

/* ---- close (connect is in db_mysql_conn.c) ---- */

void dbm_stmt_clear(struct dbm_stmt *s)
{
    if (s->st)
        mysql_stmt_close(s->st);
    free(s->sql);
    free(s->bind);
    free(s->lens);
    free(s->ints);
    for (int i = 0; s->strs && i < s->nparams; i++)
        free(s->strs[i].s);
    free(s->strs);
    memset(s, 0, sizeof *s);
}

static void dbm_unprepare(struct db_conn *c, int id)
{
    if (id >= 0 && id < c->nstmts)
        dbm_stmt_clear(&c->stmts[id]);
}

static void dbm_close(struct db_conn *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->nstmts; i++)
        dbm_stmt_clear(&c->stmts[i]);
    free(c->stmts);
    mysql_close(c->m);
    free(c->q.s);
    free(c->bulk[0].s);
    free(c->bulk[1].s);
    free(c);
}

/* ---- prepare ---- */

/* '?' outside quoted literals and identifiers. */
static int dbm_count_params(const char *sql)
{
    int n = 0;
    char quote = 0;
    for (const char *p = sql; *p; p++) {
        if (quote) {
            if (*p == '\\' && p[1])
                p++;
            else if (*p == quote)
                quote = 0;
        } else if (*p == '\'' || *p == '"' || *p == '`') {
            quote = *p;
        } else if (*p == '?') {
            n++;
        }
    }
    return n;
}

static int dbm_prepare(struct db_conn *c, int id, const char *sql, int nparams,
                       struct db_error *err)
{
    if (id < 0 || nparams < 0) {
        dbm_usage(err, "mysql: statement id out of range");
        return -1;
    }
    if (c->step != DBM_IDLE || c->bulk_inflight) {
        dbm_usage(err, "mysql: prepare while a statement is running");
        return -1;
    }
    if (id >= c->nstmts) {
        c->stmts = xrealloc(c->stmts, sizeof *c->stmts * (size_t)(id + 1));
        memset(c->stmts + c->nstmts, 0, sizeof *c->stmts * (size_t)(id + 1 - c->nstmts));
        c->nstmts = id + 1;
    }
    struct dbm_stmt *s = &c->stmts[id];
    dbm_stmt_clear(s);
    /* every statement is prepared with ps, BEGIN and COMMIT too, as sysbench
     * prepares them (its scripts and the built-in mixes alike) */
    if (c->ps) {
        s->st = mysql_stmt_init(c->m);
        if (!s->st) {
            dbm_conn_err(c, err);
            return -1;
        }
        if (mysql_stmt_prepare(s->st, sql, (unsigned long)strlen(sql))) {
            dbm_stmt_err(s->st, err);
            dbm_stmt_clear(s);
            return -1;
        }
        if ((int)mysql_stmt_param_count(s->st) != nparams) {
            snprintf(err->msg, sizeof err->msg,
                     "mysql: statement %d has %lu parameters, %d declared", id,
                     mysql_stmt_param_count(s->st), nparams);
            err->cls = DB_ERR_FATAL;
            strcpy(err->code, "0");
            dbm_stmt_clear(s);
            return -1;
        }
        /* the row path sizes its buffers by each column's longest value */
        my_bool on = 1;
        mysql_stmt_attr_set(s->st, STMT_ATTR_UPDATE_MAX_LENGTH, &on);
    } else {
        if (dbm_count_params(sql) != nparams) {
            snprintf(err->msg, sizeof err->msg, "mysql: statement %d has %d '?', %d declared", id,
                     dbm_count_params(sql), nparams);
            err->cls = DB_ERR_FATAL;
            strcpy(err->code, "0");
            return -1;
        }
        s->sql = xstrdup(sql);
    }
    s->nparams = nparams;
    if (nparams) {
        s->bind = xcalloc((size_t)nparams, sizeof *s->bind);
        s->lens = xcalloc((size_t)nparams, sizeof *s->lens);
        s->ints = xcalloc((size_t)nparams, sizeof *s->ints);
        s->strs = xcalloc((size_t)nparams, sizeof *s->strs);
    }
    return 0;
}

/* ---- the statement state machine ---- */

static enum db_status dbm_fail(struct db_conn *c, MYSQL_STMT *st, struct db_error *err)
{
    if (st)
        dbm_stmt_err(st, err);
    else
        dbm_conn_err(c, err);
    c->step = DBM_IDLE;
    c->cur = NULL;
    if (c->res) { /* what the row path kept of a reply that failed later */
        db_result_free(c->res);
        c->res = NULL;
    }
    return DB_FAILED;
}

/* After a text result header: rows to store, or an OK packet. */
static enum dbm_step dbm_text_next(struct db_conn *c)
{
    if (mysql_field_count(c->m) > 0)
        return DBM_STORE;
    if (c->res)
        c->res->affected = (long)mysql_affected_rows(c->m);
    return mysql_more_results(c->m) ? DBM_NEXT : DBM_READY;
}

/* After an execute: rows to skip, or an OK packet. The rows are never
 * stored: mysql_stmt_free_result on an unread result reads its packets and
 * drops them (and takes the server status from its EOF, which
 * mysql_more_results reads), where mysql_stmt_store_result would copy every
 * row into the statement's memory first. */
static enum dbm_step dbm_stmt_next(struct db_conn *c)
{
    if (mysql_stmt_field_count(c->cur) > 0)
        return c->res ? DBM_SSTORE : DBM_SFREE;
    if (c->res)
        c->res->affected = (long)mysql_stmt_affected_rows(c->cur);
    return mysql_more_results(c->m) ? DBM_SNEXT : DBM_READY;
}

/*
 * Run the chain from the current step until a call suspends (DB_WAIT_*),
 * fails, or the statement is complete (DB_DONE with step DBM_READY).
 * ready is 0 to begin the current step, else the events it was waiting for.
 */
enum db_status dbm_drive(struct db_conn *c, int ready, struct db_error *err)
{
    for (;;) {
        int w = 0, r = 0;
        my_bool b = 0;
        switch (c->step) {
        case DBM_SEND:
            w = ready ? mysql_send_query_cont(&r, c->m, ready)
                      : mysql_send_query_start(&r, c->m, c->q.s, c->q.len);
            if (w)
                break;
            if (r)
                return dbm_fail(c, NULL, err);
            /* Out: wait for the reply before the first read. */
            c->step = DBM_AWAIT;
            c->wait = MYSQL_WAIT_READ;
            return DB_WAIT_READ;
        case DBM_AWAIT:
            c->step = DBM_RESULT;
            ready = 0; /* begin the read: no call is suspended */
            continue;
        case DBM_RESULT:
            w = ready ? mysql_read_query_result_cont(&b, c->m, ready)
                      : mysql_read_query_result_start(&b, c->m);
            if (w)
                break;
            if (b)
                return dbm_fail(c, NULL, err);
            c->step = dbm_text_next(c);
            break;
        case DBM_STORE: {
            MYSQL_RES *res = NULL;
            w = ready ? mysql_store_result_cont(&res, c->m, ready)
                      : mysql_store_result_start(&res, c->m);
            if (w)
                break;
            if (!res)
                return dbm_fail(c, NULL, err);
            if (c->res)
                dbm_rows_copy(res, c->res); /* and frees res */
            else
                mysql_free_result(res); /* fully stored: no I/O left */
            c->step = mysql_more_results(c->m) ? DBM_NEXT : DBM_READY;
            break;
        }
        case DBM_NEXT:
            w = ready ? mysql_next_result_cont(&r, c->m, ready) : mysql_next_result_start(&r, c->m);
            if (w)
                break;
            if (r > 0)
                return dbm_fail(c, NULL, err);
            c->step = r < 0 ? DBM_READY : dbm_text_next(c);
            break;
        case DBM_EXEC:
            w = ready ? mysql_stmt_execute_cont(&r, c->cur, ready)
                      : mysql_stmt_execute_start(&r, c->cur);
            if (w)
                break;
            if (r)
                return dbm_fail(c, c->cur, err);
            c->step = dbm_stmt_next(c);
            break;
        case DBM_SFREE:
            w = ready ? mysql_stmt_free_result_cont(&b, c->cur, ready)
                      : mysql_stmt_free_result_start(&b, c->cur);
            if (w)
                break;
            if (b)
                return dbm_fail(c, c->cur, err);
            c->step = mysql_more_results(c->m) ? DBM_SNEXT : DBM_READY;
            break;
        case DBM_SSTORE:
            w = ready ? mysql_stmt_store_result_cont(&r, c->cur, ready)
                      : mysql_stmt_store_result_start(&r, c->cur);
            if (w)
                break;
            if (r)
                return dbm_fail(c, c->cur, err);
            dbm_rows_keep(c->cur, c->res);
            c->step = DBM_READY;
            break;
        case DBM_SNEXT:
            w = ready ? mysql_stmt_next_result_cont(&r, c->cur, ready)
                      : mysql_stmt_next_result_start(&r, c->cur);
            if (w)
                break;
            if (r > 0)
                return dbm_fail(c, c->cur, err);
            c->step = r < 0 ? DBM_READY : dbm_stmt_next(c);
            break;
        case DBM_READY:
            return DB_DONE;
        case DBM_IDLE:
        default:
            dbm_usage(err, "mysql: cont() without a running statement");
            return DB_FAILED;
        }
        if (w) {
            /* A read or write wait; a timeout alone (no timeouts are set)
             * is resumed at once and lets the library report it. */
            c->wait = w & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE);
            if (!c->wait)
                c->wait = MYSQL_WAIT_TIMEOUT;
            return (w & MYSQL_WAIT_READ) ? DB_WAIT_READ : DB_WAIT_WRITE;
        }
        ready = 0;
    }
}

/* Text form of a registered statement: '?' replaced by quoted values. */
static void dbm_build_text(struct db_conn *c, const char *sql, const struct db_param *p)
{
    struct dbm_buf *b = &c->q;
    const char *lit = sql;
    int k = 0;
    char quote = 0;
    b->len = 0;
    for (const char *s = sql; *s; s++) {
        if (quote) {
            if (*s == '\\' && s[1])
                s++;
            else if (*s == quote)
                quote = 0;
            continue;
        }
        if (*s == '\'' || *s == '"' || *s == '`') {
            quote = *s;
            continue;
        }
        if (*s != '?')
            continue;
        dbm_add(b, lit, (size_t)(s - lit));
        if (p[k].type == DB_PINT)
            dbm_add_int(b, p[k].i);
        else
            dbm_add_quoted(c, b, p[k].s, p[k].len >= 0 ? (size_t)p[k].len : strlen(p[k].s));
        k++;
        lit = s + 1;
    }
    dbm_add(b, lit, strlen(lit));
}

/* The statement is complete: ready for the next. */
enum db_status dbm_finish(struct db_conn *c)
{
    c->step = DBM_IDLE;
    c->cur = NULL;
    c->res = NULL;
    return DB_DONE;
}

static enum db_status dbm_start(struct db_conn *c, int id, const char *sql,
                                const struct db_param *p, int np, struct db_error *err)
{
    if (c->step != DBM_IDLE || c->bulk_inflight) {
        dbm_usage(err, "mysql: start() while another statement is running");
        return DB_FAILED;
    }
    c->cur = NULL;
    if (id < 0) {
        if (!sql) {
            dbm_usage(err, "mysql: start() without a statement");
            return DB_FAILED;
        }
        c->q.len = 0;
        dbm_add(&c->q, sql, strlen(sql));
        c->step = DBM_SEND;
    } else {
        struct dbm_stmt *s = id < c->nstmts ? &c->stmts[id] : NULL;
        if (!s || (!s->st && !s->sql)) {
            dbm_usage(err, "mysql: start() of a statement that was not prepared");
            return DB_FAILED;
        }
        if (np != s->nparams) {
            snprintf(err->msg, sizeof err->msg, "mysql: statement %d takes %d parameters, got %d",
                     id, s->nparams, np);
            err->cls = DB_ERR_FATAL;
            strcpy(err->code, "0");
            return DB_FAILED;
        }
        if (s->sql) {
            dbm_build_text(c, s->sql, p);
            c->step = DBM_SEND;
        } else {
            /* Bind once and refill the bound buffers, as the manual's
             * examples do: a new bind makes the next execute resend the
             * parameter types. Rebind only when a type or buffer changes. */
            int rebind = !s->bound;
            for (int i = 0; i < np; i++) {
                if (p[i].type == DB_PINT) {
                    s->ints[i] = p[i].i;
                    rebind |= s->bind[i].buffer_type != MYSQL_TYPE_LONGLONG;
                    continue;
                }
                size_t n = p[i].len >= 0 ? (size_t)p[i].len : strlen(p[i].s);
                struct dbm_buf *b = &s->strs[i];
                if (n + 1 > b->cap) {
                    dbm_reserve(b, n + 1);
                    rebind = 1;
                }
                if (n)
                    memcpy(b->s, p[i].s, n);
                s->lens[i] = n;
                rebind |= s->bind[i].buffer_type != MYSQL_TYPE_STRING;
            }
            if (rebind && np) {
                s->bound = 0; /* until the library holds the new buffers */
                for (int i = 0; i < np; i++) {
                    MYSQL_BIND *bd = &s->bind[i];
                    memset(bd, 0, sizeof *bd);
                    if (p[i].type == DB_PINT) {
                        bd->buffer_type = MYSQL_TYPE_LONGLONG;
                        bd->buffer = &s->ints[i];
                    } else {
                        bd->buffer_type = MYSQL_TYPE_STRING;
                        bd->buffer = s->strs[i].s;
                        bd->buffer_length = (unsigned long)s->strs[i].cap;
                        bd->length = &s->lens[i];
                    }
                }
                if (mysql_stmt_bind_param(s->st, s->bind)) {
                    dbm_stmt_err(s->st, err);
                    return DB_FAILED;
                }
                s->bound = 1;
            }
            c->cur = s->st;
            c->step = DBM_EXEC;
        }
    }
    enum db_status st = dbm_drive(c, 0, err);
    if (st == DB_DONE) /* the reply was already there */
        return dbm_finish(c);
    return st;
}

/* The row path: bind vals to s's parameters, as dbm_start binds: the
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

static enum db_status dbm_cont(struct db_conn *c, struct db_error *err)
{
    enum db_status st = dbm_drive(c, c->wait, err);
    return st == DB_DONE ? dbm_finish(c) : st;
}

static const char *dbm_server_version(struct db_conn *c)
{
    return mysql_get_server_info(c->m);
}

static const char *const dbm_settings[][2] = {
    {"innodb_buffer_pool_size", "SELECT @@innodb_buffer_pool_size"},
    {"max_connections", "SELECT @@max_connections"},
    {"innodb_flush_log_at_trx_commit", "SELECT @@innodb_flush_log_at_trx_commit"},
    {"sync_binlog", "SELECT @@sync_binlog"},
    {"log_bin", "SELECT @@log_bin"},
};

const struct db_ops db_mysql_ops = {
    .name = "mysql",
    .connect = dbm_connect,
    .close = dbm_close,
    .fd = dbm_fd,
    .prepare = dbm_prepare,
    .start = dbm_start,
    .cont = dbm_cont,
    .bulk_begin = dbm_bulk_begin,
    .bulk_row = dbm_bulk_row,
    .bulk_end = dbm_bulk_end,
    .query_value = dbm_query_value,
    .server_version = dbm_server_version,
    .start_rows = dbm_start_rows,
    .unprepare = dbm_unprepare,
    .options = db_mysql_options,
    .target_opts = db_mysql_target_opts,
    .socket_opt = "mysql-socket",
    .port_env = "MYSQL_TCP_PORT",
    .max_connections_sql = "SHOW GLOBAL VARIABLES LIKE 'max_connections'",
    .reserved_connections_sql = NULL,
    .settings = dbm_settings,
    .nsettings = sizeof dbm_settings / sizeof dbm_settings[0],
    .schema = "mysql",
    .auto_id_def = "INTEGER NOT NULL AUTO_INCREMENT",
    .secondary_key = "KEY xid",
    .auto_id_omitted = 0,
    .batch_min_conns = 3,
    .prepared_trx = 1,
};
