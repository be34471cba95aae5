/*
 * lsql_mysql.c - MariaDB/MySQL for Lua scripts, on Connector/C: blocking
 * (commands other than run) and started-and-stepped with the non-blocking
 * API (mysql_real_query_start / _cont, mysql_store_result_start / _cont)
 * for run's event loops.
 *
 * The idea: a prepared statement is kept as its '?' text and each execute
 * sends it with the values quoted in (mysql_real_escape_string), so every
 * statement returns a full text result set a script can fetch, and the
 * server's Com_* counters see the same statements. Never prints.
 */
#include <mysql.h>
#include <mysqld_error.h>
#include <errmsg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsql.h"
#include "util.h"

struct lsql_conn {
    MYSQL *m;
    char *sql[LSQL_MAX_STMTS];
    struct sbuf q;
    /* a stepped statement: 1 = the query is going, 2 = the result; the
     * MYSQL_WAIT_* status the library waits for */
    int phase, status;
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

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* mysql_init() would initialise the library on first use, racing when many
 * threads connect at once; once, here, it cannot. */
static void lib_init(void)
{
    mysql_library_init(0, NULL, NULL);
}

static struct lsql_conn *myl_connect(const struct db_target *t, struct lsql_error *e)
{
    pthread_once(&once, lib_init);
    MYSQL *m = mysql_init(NULL);
    if (!m) {
        e->cls = LSQL_FATAL;
        snprintf(e->msg, sizeof e->msg, "mysql_init: out of memory");
        return NULL;
    }
    unsigned timeout = 10;
    mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    if (t->defaults_file)
        mysql_options(m, MYSQL_READ_DEFAULT_FILE, t->defaults_file);
    mysql_options(m, MYSQL_READ_DEFAULT_GROUP, "client");
    /* run's loops step statements with the non-blocking API, which needs
     * this before connecting; blocking calls work on the handle as before */
    mysql_options(m, MYSQL_OPT_NONBLOCK, 0);
    if (!mysql_real_connect(m, t->host, t->user, t->password, t->db, (unsigned)t->port, t->socket,
                            0)) {
        seterr(e, m);
        e->cls = LSQL_FATAL;
        char msg[sizeof e->msg];
        snprintf(msg, sizeof msg, "can't connect to MySQL at %s:%d: %s",
                 t->host ? t->host : "(default)", t->port, mysql_error(m));
        memcpy(e->msg, msg, sizeof msg);
        mysql_close(m);
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

/* Copy a stored result (or the affected count when there is none) out. */
static int fill(struct lsql_conn *c, MYSQL_RES *r, struct lsql_result *res, struct lsql_error *e)
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
               struct lsql_error *e)
{
    if (mysql_real_query(c->m, sql, len) != 0) {
        seterr(e, c->m);
        return -1;
    }
    return fill(c, mysql_store_result(c->m), res, e);
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

/* The statement's text with the values quoted in, in c->q. */
static void bind_text(struct lsql_conn *c, int id, const char *const *vals, int np)
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
}

static int myl_execute(struct lsql_conn *c, int id, const char *const *vals, int np,
                       struct lsql_result *res, struct lsql_error *e)
{
    bind_text(c, id, vals, np);
    return run(c, c->q.s ? c->q.s : "", c->q.len, res, e);
}

static void myl_unprepare(struct lsql_conn *c, int id)
{
    free(c->sql[id]);
    c->sql[id] = NULL;
}

/* ---- stepped: run's event loops ---- */

static int waits(int status)
{
    return status & MYSQL_WAIT_WRITE ? LSQL_WAIT_WRITE : LSQL_WAIT_READ;
}

/* Go on from phase 1 (the query) or 2 (its result) until the library must
 * wait; a status of 0 means the phase just finished. */
static int advance(struct lsql_conn *c, int err, struct lsql_result *res, struct lsql_error *e,
                   int *rc)
{
    if (c->phase == 1) {
        if (c->status)
            return waits(c->status);
        if (err) {
            c->phase = 0;
            seterr(e, c->m);
            *rc = -1;
            return LSQL_DONE;
        }
        c->phase = 2;
        MYSQL_RES *r = NULL;
        c->status = mysql_store_result_start(&r, c->m);
        if (c->status)
            return waits(c->status);
        c->phase = 0;
        *rc = fill(c, r, res, e);
        return LSQL_DONE;
    }
    return LSQL_DONE;
}

static int start(struct lsql_conn *c, struct lsql_result *res, struct lsql_error *e, int *rc)
{
    int err = 0;
    c->phase = 1;
    /* c->q holds the text until the statement is done: the library may
     * still be writing it after _start returns */
    c->status = mysql_real_query_start(&err, c->m, c->q.s ? c->q.s : "", c->q.len);
    return advance(c, err, res, e, rc);
}

static int mya_send_query(struct lsql_conn *c, const char *sql, struct lsql_result *res,
                          struct lsql_error *e, int *rc)
{
    c->q.len = 0;
    sbuf_add(&c->q, sql, strlen(sql));
    return start(c, res, e, rc);
}

static int mya_send_execute(struct lsql_conn *c, int id, const char *const *vals, int np,
                            struct lsql_result *res, struct lsql_error *e, int *rc)
{
    bind_text(c, id, vals, np);
    return start(c, res, e, rc);
}

static int mya_step(struct lsql_conn *c, struct lsql_result *res, struct lsql_error *e, int *rc)
{
    /* hand back only the event waited for: a MYSQL_WAIT_TIMEOUT bit would
     * tell the library its timeout had passed */
    int ready = c->status & (MYSQL_WAIT_READ | MYSQL_WAIT_WRITE | MYSQL_WAIT_EXCEPT);
    if (c->phase == 1) {
        int err = 0;
        c->status = mysql_real_query_cont(&err, c->m, ready);
        return advance(c, err, res, e, rc);
    }
    if (c->phase == 2) {
        MYSQL_RES *r = NULL;
        c->status = mysql_store_result_cont(&r, c->m, ready);
        if (c->status)
            return waits(c->status);
        c->phase = 0;
        *rc = fill(c, r, res, e);
        return LSQL_DONE;
    }
    *rc = 0;
    return LSQL_DONE;
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
