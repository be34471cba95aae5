/*
 * db_pgsql.c - the PostgreSQL backend, on libpq's asynchronous API.
 *
 * start() sends with PQsendQueryPrepared (or PQsendQuery for text) on a
 * non-blocking connection and returns at once; cont() feeds the socket to
 * PQconsumeInput and drains PQgetResult until libpq has nothing left. Per
 * statement that is one send and one receive, plus whatever wait the caller
 * chooses: the event loop decides how to wait, not the backend.
 * Connection details go through libpq's own conninfo and environment
 * handling (PGHOST, PGPASSFILE, service files), never re-parsed here.
 */
#include <errno.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines/db.h"
#include "engines/db_pgsql_conn.h"
#include "core/util.h"

static void quiet_notice(void *arg, const char *msg)
{
    (void)arg;
    (void)msg; /* "no transaction in progress" after a retry's ROLLBACK, etc. */
}

static struct db_conn *pg_connect(const struct db_target *t, struct db_error *err)
{
    char cerr[400];
    PGconn *pg = db_pgsql_connectdb(t, cerr, sizeof cerr);
    if (!pg) {
        db_error_set(err, DB_ERR_FATAL, "", cerr);
        return NULL;
    }
    if (PQstatus(pg) != CONNECTION_OK) {
        char msg[400];
        snprintf(msg, sizeof msg, "%s", PQerrorMessage(pg));
        /* where libpq really went: a conninfo may have overridden the fields */
        const char *where = PQhost(pg), *wport = PQport(pg);
        char full[sizeof err->msg];
        snprintf(full, sizeof full, "cannot connect to PostgreSQL at %s port %s: %s",
                 where && *where ? where : "(default host)", wport && *wport ? wport : "(default)",
                 msg);
        /* bad password or database: retrying will not help */
        int fatal = strstr(msg, "password") || strstr(msg, "does not exist") ||
                    strstr(msg, "no pg_hba.conf");
        db_error_set(err, fatal ? DB_ERR_FATAL : DB_ERR_RECONNECT, "08001", full);
        PQfinish(pg);
        return NULL;
    }
    struct db_conn *c = xcalloc(1, sizeof *c);
    c->pg = pg;
    c->ps = t->ps;
    PQsetNoticeProcessor(pg, quiet_notice, NULL);
    if (PQsetnonblocking(pg, 1) != 0) {
        /* a blocking connection would stall the whole event loop */
        db_pgsql_conn_error(c, err);
        err->cls = DB_ERR_FATAL;
        PQfinish(pg);
        free(c);
        return NULL;
    }
    return c;
}

static void pg_close(struct db_conn *c)
{
    if (!c)
        return;
    PQclear(c->last);
    PQfinish(c->pg);
    for (int i = 0; i < c->nstmts; i++)
        free(c->text[i]);
    free(c->text);
    free(c->srv);
    free(c->pp);
    sbuf_free(&c->qbuf);
    sbuf_free(&c->copy);
    free(c);
}

static int pg_fd(struct db_conn *c)
{
    return PQsocket(c->pg);
}

static int pg_prepare(struct db_conn *c, int id, const char *sql, int nparams, struct db_error *err)
{
    if (id < 0 || nparams > PG_MAX_PARAMS) {
        db_error_set(err, DB_ERR_FATAL, "", "statement id or parameter count out of range");
        return -1;
    }
    if (id >= c->nstmts) {
        c->text = xrealloc(c->text, sizeof *c->text * (size_t)(id + 1));
        memset(c->text + c->nstmts, 0, sizeof *c->text * (size_t)(id + 1 - c->nstmts));
        c->srv = xrealloc(c->srv, (size_t)(id + 1));
        memset(c->srv + c->nstmts, PG_SRV_NONE, (size_t)(id + 1 - c->nstmts));
        c->nstmts = id + 1;
    }
    free(c->text[id]);
    c->text[id] = xstrdup(sql);
    if (c->srv[id] == PG_SRV_LIVE)
        c->srv[id] = PG_SRV_STALE;
    /* BEGIN, COMMIT: nothing to bind, so plain text even with ps (a
     * script's are; pg_stat_statements then counts every tool's alike) */
    if (!c->ps || nparams == 0)
        return 0;
    char buf[16];
    const char *name = db_pgsql_stmt_name(buf, 's', id);
    if (c->srv[id] == PG_SRV_STALE) {
        char sql_d[32];
        snprintf(sql_d, sizeof sql_d, "DEALLOCATE %s", name);
        PGresult *d = PQexec(c->pg, sql_d);
        int ok = PQresultStatus(d) == PGRES_COMMAND_OK;
        if (!ok)
            db_pgsql_result_error(err, c->pg, d);
        PQclear(d);
        if (!ok)
            return -1;
        c->srv[id] = PG_SRV_NONE;
    }
    char *q = db_pgsql_dollarize(sql);
    PGresult *r = PQprepare(c->pg, name, q, nparams, NULL);
    free(q);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        db_pgsql_result_error(err, c->pg, r);
        PQclear(r);
        return -1;
    }
    PQclear(r);
    c->srv[id] = PG_SRV_LIVE;
    return 0;
}

static void pg_unprepare(struct db_conn *c, int id)
{
    if (id < 0 || id >= c->nstmts)
        return;
    free(c->text[id]);
    c->text[id] = NULL;
    if (c->srv[id] == PG_SRV_LIVE)
        c->srv[id] = PG_SRV_STALE;
}

static const char *param_text(struct pg_params *c, int i, const struct db_param *p)
{
    if (p->type == DB_PINT) {
        /* by hand: printf's machinery was 1-2% of the client's CPU */
        char *end = c->ints[i] + sizeof c->ints[i] - 1, *q = end;
        unsigned long long v =
            p->i < 0 ? 0ull - (unsigned long long)p->i : (unsigned long long)p->i;
        *q = '\0';
        do
            *--q = (char)('0' + v % 10);
        while ((v /= 10) != 0);
        if (p->i < 0)
            *--q = '-';
        return q;
    }
    /* libpq's text parameters are NUL-terminated */
    int l = p->len < (int)sizeof c->scratch[i] - 1 ? p->len : (int)sizeof c->scratch[i] - 1;
    memcpy(c->scratch[i], p->s, (size_t)l);
    c->scratch[i][l] = '\0';
    return c->scratch[i];
}

/* ps off: build the statement text with literals, as sysbench's
 * --db-ps-mode=disable does. */
static const char *inline_params(struct db_conn *c, const char *sql, const struct db_param *p,
                                 int np)
{
    c->qbuf.len = 0;
    int k = 0;
    for (const char *s = sql; *s; s++) {
        if (*s != '?' || k >= np) {
            sbuf_add(&c->qbuf, s, 1);
            continue;
        }
        const struct db_param *q = &p[k++];
        if (q->type == DB_PINT) {
            sbuf_printf(&c->qbuf, "%lld", q->i);
        } else {
            char esc[2 * 128 + 1];
            int l = q->len < 128 ? q->len : 128, e = 0;
            size_t n = PQescapeStringConn(c->pg, esc, q->s, (size_t)l, &e);
            sbuf_add(&c->qbuf, "'", 1);
            sbuf_add(&c->qbuf, esc, n);
            sbuf_add(&c->qbuf, "'", 1);
        }
    }
    return c->qbuf.s;
}

/* The reply always needs a round trip: never DB_DONE here. */
static enum db_status pg_start(struct db_conn *c, int id, const char *sql, const struct db_param *p,
                               int np, struct db_error *err)
{
    int ok;
    c->failed = 0;
    if (id >= c->nstmts || (id >= 0 && !c->text[id])) {
        db_error_set(err, DB_ERR_FATAL, "", "pgsql: start() of a statement that was not prepared");
        return DB_FAILED;
    }
    if (id < 0) {
        ok = PQsendQuery(c->pg, sql);
    } else if (c->srv[id] == PG_SRV_LIVE) {
        char name[16];
        struct pg_params *pp = c->pp ? c->pp : (c->pp = xmalloc(sizeof *c->pp));
        for (int i = 0; i < np; i++)
            pp->vals[i] = param_text(pp, i, &p[i]);
        ok = PQsendQueryPrepared(c->pg, db_pgsql_stmt_name(name, 's', id), np, pp->vals, NULL, NULL,
                                 0);
    } else {
        ok = PQsendQuery(c->pg, inline_params(c, c->text[id], p, np));
    }
    if (!ok) {
        db_pgsql_conn_error(c, err);
        return DB_FAILED;
    }
    return db_pgsql_after_send(c, err);
}

static enum db_status pg_cont(struct db_conn *c, struct db_error *err)
{
    if (c->flushing) {
        enum db_status s = db_pgsql_after_send(c, err);
        if (s != DB_WAIT_READ)
            return s;
    }
    if (c->res)
        return db_pgsql_rows_cont(c, err);
    if (!PQconsumeInput(c->pg)) {
        db_pgsql_conn_error(c, err);
        return DB_FAILED;
    }
    while (!PQisBusy(c->pg)) {
        PGresult *r = PQgetResult(c->pg);
        if (!r) {
            if (c->failed) {
                *err = c->pending;
                return DB_FAILED;
            }
            return DB_DONE;
        }
        switch (PQresultStatus(r)) {
        case PGRES_TUPLES_OK:
        case PGRES_COMMAND_OK:
        case PGRES_EMPTY_QUERY:
            break; /* nobody reads the rows: counting them was wasted work */
        default:
            if (!c->failed) {
                db_pgsql_result_error(&c->pending, c->pg, r);
                c->failed = 1;
            }
        }
        PQclear(r);
    }
    if (PQstatus(c->pg) == CONNECTION_BAD) {
        db_pgsql_conn_error(c, err);
        return DB_FAILED;
    }
    return DB_WAIT_READ;
}

/* Bulk load uses COPY ... FROM STDIN in blocking mode: prepare is not the
 * measured phase, and blocking keeps PQputCopyData simple. */
static int pg_bulk_begin(struct db_conn *c, const char *table, const char *cols,
                         struct db_error *err)
{
    char sql[512];
    snprintf(sql, sizeof sql, "COPY %s (%s) FROM STDIN", table, cols);
    if (PQsetnonblocking(c->pg, 0) != 0) {
        db_pgsql_conn_error(c, err);
        return -1;
    }
    PGresult *r = PQexec(c->pg, sql);
    if (PQresultStatus(r) != PGRES_COPY_IN) {
        db_pgsql_result_error(err, c->pg, r);
        PQclear(r);
        if (PQsetnonblocking(c->pg, 1) != 0)
            db_pgsql_conn_error(c, err);
        return -1;
    }
    PQclear(r);
    c->copy.len = 0;
    return 0;
}

static int copy_flush(struct db_conn *c, struct db_error *err)
{
    if (c->copy.len == 0)
        return 0;
    if (PQputCopyData(c->pg, c->copy.s, (int)c->copy.len) != 1) {
        db_pgsql_conn_error(c, err);
        return -1;
    }
    c->copy.len = 0;
    return 0;
}

static int pg_bulk_row(struct db_conn *c, const char *const *vals, int nvals, struct db_error *err)
{
    for (int i = 0; i < nvals; i++) {
        if (i)
            sbuf_add(&c->copy, "\t", 1);
        for (const char *s = vals[i]; *s; s++) {
            /* COPY text format: escape the delimiter, newlines and backslash */
            if (*s == '\t' || *s == '\n' || *s == '\\' || *s == '\r')
                sbuf_add(&c->copy, "\\", 1);
            sbuf_add(&c->copy, s, 1);
        }
    }
    sbuf_add(&c->copy, "\n", 1);
    return c->copy.len >= 256 * 1024 ? copy_flush(c, err) : 0;
}

static int pg_bulk_end(struct db_conn *c, struct db_error *err)
{
    int rc = copy_flush(c, err);
    if (PQputCopyEnd(c->pg, rc ? "aborted" : NULL) != 1 && rc == 0) {
        db_pgsql_conn_error(c, err);
        rc = -1;
    }
    PGresult *r;
    while ((r = PQgetResult(c->pg)) != NULL) {
        if (PQresultStatus(r) != PGRES_COMMAND_OK && rc == 0) {
            db_pgsql_result_error(err, c->pg, r);
            rc = -1;
        }
        PQclear(r);
    }
    if (PQsetnonblocking(c->pg, 1) != 0 && rc == 0) {
        db_pgsql_conn_error(c, err);
        rc = -1;
    }
    return rc;
}

static char *pg_query_value(struct db_conn *c, const char *sql, struct db_error *err)
{
    PGresult *r = PQexec(c->pg, sql);
    ExecStatusType s = PQresultStatus(r);
    if (s != PGRES_TUPLES_OK && s != PGRES_COMMAND_OK) {
        db_pgsql_result_error(err, c->pg, r);
        PQclear(r);
        return NULL;
    }
    char *v = xstrdup(s == PGRES_TUPLES_OK && PQntuples(r) > 0 && PQnfields(r) > 0
                          ? PQgetvalue(r, 0, PQnfields(r) - 1)
                          : "");
    PQclear(r);
    return v;
}

static const char *pg_server_version(struct db_conn *c)
{
    int v = PQserverVersion(c->pg);
    if (v >= 100000)
        snprintf(c->version, sizeof c->version, "%d.%d", v / 10000, v % 10000);
    else
        snprintf(c->version, sizeof c->version, "%d.%d.%d", v / 10000, v / 100 % 100, v % 100);
    return c->version;
}

static const char *const pg_settings[][2] = {
    {"shared_buffers", "SHOW shared_buffers"},
    {"max_connections", "SHOW max_connections"},
    {"fsync", "SHOW fsync"},
    {"synchronous_commit", "SHOW synchronous_commit"},
    {"wal_level", "SHOW wal_level"},
};

const struct db_ops db_pgsql_ops = {
    .name = "pgsql",
    .connect = pg_connect,
    .close = pg_close,
    .fd = pg_fd,
    .prepare = pg_prepare,
    .start = pg_start,
    .cont = pg_cont,
    .bulk_begin = pg_bulk_begin,
    .bulk_row = pg_bulk_row,
    .bulk_end = pg_bulk_end,
    .query_value = pg_query_value,
    .server_version = pg_server_version,
    .start_rows = db_pgsql_start_rows,
    .unprepare = pg_unprepare,
    .options = db_pgsql_options,
    .target_opts = db_pgsql_target_opts,
    .socket_opt = NULL,
    .port_env = "PGPORT",
    .max_connections_sql = "SHOW max_connections",
    /* superuser_reserved_connections (3) are out of sbtest's reach */
    .reserved_connections_sql = "SHOW superuser_reserved_connections",
    .settings = pg_settings,
    .nsettings = sizeof pg_settings / sizeof pg_settings[0],
    .schema = "pgsql",
    .auto_id_def = "SERIAL",
    /* PostgreSQL has no KEY clause; sysbench's own DDL fails there */
    .secondary_key = "UNIQUE",
    .auto_id_omitted = 1,
    .batch_min_conns = 2,
};
