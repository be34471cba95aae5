/*
 * db_pgsql_rows.c - the PostgreSQL backend's row path: a statement whose
 * reply the caller reads (the Lua scripts' result sets).
 *
 * The one idea: the reply's last PGresult is kept as it is and read in
 * place when the caller fetches rows, so a statement whose rows nobody
 * reads (most of sysbench's) copies nothing. An error that leaves the
 * transaction aborted is followed by a ROLLBACK, sent and read without
 * blocking, as sysbench's pgsql driver rolls back: the script restarts its
 * event with BEGIN, which an aborted transaction refuses (25P02).
 */
#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>

#include "engines/db_pgsql_conn.h"

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

static const struct db_rows pg_rows = {pg_value, pg_free};

/* A finished reply r into res: its rows stay in r, which res then owns. */
static void keep(PGresult *r, struct db_result *res)
{
    if (PQresultStatus(r) == PGRES_TUPLES_OK) {
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
}

static enum db_status done(struct db_conn *c, enum db_status st)
{
    c->res = NULL;
    c->rolling = 0;
    PQclear(c->last);
    c->last = NULL;
    return st;
}

enum db_status db_pgsql_start_rows(struct db_conn *c, int id, const char *sql,
                                   const char *const *vals, int np, struct db_result *res,
                                   struct db_error *err)
{
    memset(res, 0, sizeof *res);
    int ok;
    if (id < 0) {
        ok = PQsendQuery(c->pg, sql);
    } else if (id >= c->nstmts || !c->text[id]) {
        db_error_set(err, DB_ERR_FATAL, "", "pgsql: a statement that was not prepared");
        return DB_FAILED;
    } else if (c->srv[id] == PG_SRV_LIVE) {
        char name[16];
        ok = PQsendQueryPrepared(c->pg, db_pgsql_stmt_name(name, 's', id), np, vals, NULL, NULL, 0);
    } else if (np == 0) {
        ok = PQsendQuery(c->pg, c->text[id]);
    } else {
        db_error_set(err, DB_ERR_FATAL, "",
                     "pgsql: the row path sends parameters only to prepared statements (ps on)");
        return DB_FAILED;
    }
    if (!ok) {
        db_pgsql_result_error(err, c->pg, NULL);
        return DB_FAILED;
    }
    c->res = res;
    enum db_status st = db_pgsql_after_send(c, err);
    return st == DB_FAILED ? done(c, st) : st;
}

enum db_status db_pgsql_rows_cont(struct db_conn *c, struct db_error *e)
{
    if (!PQconsumeInput(c->pg)) {
        db_pgsql_result_error(e, c->pg, NULL);
        e->cls = DB_ERR_RECONNECT; /* the socket failed: nothing more will come */
        return done(c, DB_FAILED);
    }
    while (!PQisBusy(c->pg)) {
        PGresult *r = PQgetResult(c->pg);
        if (r) { /* as PQexec: the last result is the reply */
            PQclear(c->last);
            c->last = r;
            continue;
        }
        if (c->rolling) { /* the ROLLBACK's reply is in: now the error it followed */
            *e = c->pending;
            e->rolled_back = 1;
            return done(c, DB_FAILED);
        }
        r = c->last;
        c->last = NULL;
        ExecStatusType st = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
        if (st == PGRES_TUPLES_OK || st == PGRES_COMMAND_OK) {
            keep(r, c->res);
            return done(c, DB_DONE);
        }
        db_pgsql_result_error(e, c->pg, r);
        PQclear(r);
        if (e->cls == DB_ERR_RETRY && PQtransactionStatus(c->pg) == PQTRANS_INERROR &&
            PQsendQuery(c->pg, "ROLLBACK")) {
            c->pending = *e;
            c->rolling = 1;
            enum db_status s = db_pgsql_after_send(c, e);
            return s == DB_FAILED ? done(c, s) : s;
        }
        return done(c, DB_FAILED);
    }
    if (PQstatus(c->pg) == CONNECTION_BAD) {
        db_pgsql_conn_error(c, e);
        return done(c, DB_FAILED);
    }
    return DB_WAIT_READ;
}
