/*
 * lsql_pgsql.c - PostgreSQL for Lua scripts, on libpq: blocking (commands
 * other than run) and started-and-stepped (run's event loops).
 *
 * The idea: one PQexec / PQexecPrepared (or PQsendQuery /
 * PQsendQueryPrepared, then PQconsumeInput until PQisBusy says the reply is
 * in) per call, the PGresult kept and read in place when the script fetches
 * rows, so a script sees rows exactly as sysbench's pgsql driver gives them ('?' placeholders
 * become $1..$n, as sysbench rewrites them). Never prints: libpq's notices are dropped.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/db_pgsql_conn.h"
#include "lua/lsql.h"
#include "core/util.h"

struct lsql_conn {
    PGconn *pg;
    char *text[LSQL_MAX_STMTS]; /* statements without parameters, sent as text */
    PGresult *last;             /* a stepped statement's latest result so far */
    int rolling;                /* stepped: the ROLLBACK after an ignorable error is going */
    /* closed by the script, still prepared at the server: DEALLOCATE waits
     * until the id is prepared again (sysbench's close sends nothing; a
     * round trip per close cost oltp_common's thread_done 36 at 4 tables,
     * blocking its loop, and the session's end frees them anyway) */
    unsigned char stale[LSQL_MAX_STMTS];
};

static void quiet(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

/* Classify and word the error; roll back an aborted transaction after an
 * ignorable one when rollback is set (else the caller does, stepped). */
static void classify(struct db_error *e, PGconn *pg, const PGresult *r, int rollback)
{
    const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = r ? PQresultErrorMessage(r) : PQerrorMessage(pg);
    db_error_set(e, db_pgsql_classify(st, pg), st, msg && *msg ? msg : "unknown libpq error");
    /* The event restarts with BEGIN, which an aborted transaction refuses
     * (25P02): roll it back here, as sysbench's pgsql driver does. */
    if (rollback && e->cls == DB_ERR_RETRY && PQtransactionStatus(pg) == PQTRANS_INERROR) {
        PQclear(PQexec(pg, "ROLLBACK"));
        e->rolled_back = 1;
    }
}

static void seterr(struct db_error *e, PGconn *pg, const PGresult *r)
{
    classify(e, pg, r, 1);
}

static struct lsql_conn *pgl_connect(const struct db_target *t, struct db_error *e)
{
    char cerr[400];
    PGconn *pg = db_pgsql_connectdb(t, cerr, sizeof cerr);
    if (!pg) {
        e->cls = DB_ERR_FATAL;
        snprintf(e->code, sizeof e->code, "08001");
        snprintf(e->msg, sizeof e->msg, "%s", cerr);
        return NULL;
    }
    if (PQstatus(pg) != CONNECTION_OK) {
        e->cls = DB_ERR_FATAL;
        snprintf(e->code, sizeof e->code, "08001");
        /* where libpq really went: a service or PG* variable may have said */
        const char *where = PQhost(pg), *wport = PQport(pg);
        snprintf(e->msg, sizeof e->msg, "cannot connect to PostgreSQL at %s port %s: %s",
                 where && *where ? where : "(default host)", wport && *wport ? wport : "(default)",
                 PQerrorMessage(pg));
        PQfinish(pg);
        return NULL;
    }
    PQsetNoticeProcessor(pg, quiet, NULL);
    struct lsql_conn *c = xcalloc(1, sizeof *c);
    c->pg = pg;
    return c;
}

static void pgl_close(struct lsql_conn *c)
{
    if (!c)
        return;
    PQclear(c->last);
    PQfinish(c->pg);
    for (int i = 0; i < LSQL_MAX_STMTS; i++)
        free(c->text[i]);
    free(c);
}

static const char *pg_value(void *h, long row, int f, size_t *len)
{
    if (PQgetisnull(h, (int)row, f))
        return NULL;
    *len = (size_t)PQgetlength(h, (int)row, f);
    return PQgetvalue(h, (int)row, f);
}

static void pg_free(void *h)
{
    PQclear(h);
}

static const struct lsql_rows pg_rows = {pg_value, pg_free};

/* A command's result: its affected count. Rows stay in the PGresult, which
 * the result then owns (read when fetched: no copy per statement). */
static int take(struct lsql_conn *c, PGresult *r, struct lsql_result *res, struct db_error *e)
{
    ExecStatusType s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (s != PGRES_TUPLES_OK && s != PGRES_COMMAND_OK) {
        seterr(e, c->pg, r);
        PQclear(r);
        return -1;
    }
    if (!res) {
        PQclear(r);
        return 0;
    }
    memset(res, 0, sizeof *res);
    if (s == PGRES_TUPLES_OK) {
        res->nrows = PQntuples(r);
        res->nfields = PQnfields(r);
    }
    if (res->nfields == 0)
        res->affected = atol(PQcmdTuples(r));
    if (res->nrows > 0 && res->nfields > 0) {
        res->h = r;
        res->rows = &pg_rows;
    } else {
        PQclear(r);
    }
    return 0;
}

static int pgl_query(struct lsql_conn *c, const char *sql, struct lsql_result *res,
                     struct db_error *e)
{
    return take(c, PQexec(c->pg, sql), res, e);
}

static int pgl_prepare(struct lsql_conn *c, int id, const char *sql, int nparams,
                       struct db_error *e)
{
    /* BEGIN, COMMIT: nothing to bind, so plain text, as the built-in mixes
     * send them (pg_stat_statements then counts them the same way) */
    if (nparams == 0) {
        free(c->text[id]);
        c->text[id] = xstrdup(sql);
        return 0;
    }
    char buf[16];
    const char *name = db_pgsql_stmt_name(buf, 'l', id);
    if (c->stale[id]) {
        char sql_d[32];
        snprintf(sql_d, sizeof sql_d, "DEALLOCATE %s", name);
        if (take(c, PQexec(c->pg, sql_d), NULL, e) < 0)
            return -1;
        c->stale[id] = 0;
    }
    char *q = db_pgsql_dollarize(sql);
    int rc = take(c, PQprepare(c->pg, name, q, 0, NULL), NULL, e);
    free(q);
    return rc;
}

static int pgl_execute(struct lsql_conn *c, int id, const char *const *vals, int np,
                       struct lsql_result *res, struct db_error *e)
{
    if (c->text[id])
        return take(c, PQexec(c->pg, c->text[id]), res, e);
    char name[16];
    return take(c,
                PQexecPrepared(c->pg, db_pgsql_stmt_name(name, 'l', id), np, vals, NULL, NULL, 0),
                res, e);
}

static void pgl_unprepare(struct lsql_conn *c, int id)
{
    if (c->text[id]) {
        free(c->text[id]);
        c->text[id] = NULL;
        return;
    }
    c->stale[id] = 1;
}

/* ---- stepped: run's event loops ---- */

/* Read what came; once libpq holds the whole reply, the last result (as
 * PQexec would return it) is copied out. */
static int pga_step(struct lsql_conn *c, struct lsql_result *res, struct db_error *e, int *rc)
{
    if (!PQconsumeInput(c->pg)) {
        PQclear(c->last);
        c->last = NULL;
        c->rolling = 0;
        classify(e, c->pg, NULL, 0);
        e->cls = DB_ERR_RECONNECT; /* the socket failed: nothing more will come */
        *rc = -1;
        return LSQL_DONE;
    }
    while (!PQisBusy(c->pg)) {
        PGresult *r = PQgetResult(c->pg);
        if (!r && c->rolling) { /* e holds the error the ROLLBACK followed */
            c->rolling = 0;
            PQclear(c->last);
            c->last = NULL;
            e->rolled_back = 1;
            *rc = -1;
            return LSQL_DONE;
        }
        if (!r) {
            r = c->last;
            c->last = NULL;
            ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
            if (r && st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
                classify(e, c->pg, r, 0);
                PQclear(r);
                /* the event restarts with BEGIN, which an aborted
                 * transaction refuses: roll back first, without blocking */
                if (e->cls == DB_ERR_RETRY && PQtransactionStatus(c->pg) == PQTRANS_INERROR &&
                    PQsendQuery(c->pg, "ROLLBACK")) {
                    c->rolling = 1;
                    return LSQL_WAIT_READ;
                }
                *rc = -1;
                return LSQL_DONE;
            }
            *rc = take(c, r, res, e);
            return LSQL_DONE;
        }
        PQclear(c->last);
        c->last = r;
    }
    return LSQL_WAIT_READ;
}

static int sent(struct lsql_conn *c, int ok, struct db_error *e, int *rc)
{
    if (ok)
        return LSQL_WAIT_READ;
    seterr(e, c->pg, NULL);
    *rc = -1;
    return LSQL_DONE;
}

/* The connection stays in blocking mode: a send waits only while the
 * socket's buffer is full (a bulk insert's 512 KiB), never for the server's
 * reply. */
static int pga_send_query(struct lsql_conn *c, const char *sql, struct lsql_result *res,
                          struct db_error *e, int *rc)
{
    (void)res;
    return sent(c, PQsendQuery(c->pg, sql), e, rc);
}

static int pga_send_execute(struct lsql_conn *c, int id, const char *const *vals, int np,
                            struct lsql_result *res, struct db_error *e, int *rc)
{
    (void)res;
    if (c->text[id])
        return sent(c, PQsendQuery(c->pg, c->text[id]), e, rc);
    char name[16];
    return sent(
        c, PQsendQueryPrepared(c->pg, db_pgsql_stmt_name(name, 'l', id), np, vals, NULL, NULL, 0),
        e, rc);
}

static int pga_fd(struct lsql_conn *c)
{
    return PQsocket(c->pg);
}

const struct lsql_ops lsql_pgsql_ops = {
    .name = "pgsql",
    .connect = pgl_connect,
    .close = pgl_close,
    .query = pgl_query,
    .prepare = pgl_prepare,
    .execute = pgl_execute,
    .unprepare = pgl_unprepare,
    .send_query = pga_send_query,
    .send_execute = pga_send_execute,
    .step = pga_step,
    .fd = pga_fd,
};
