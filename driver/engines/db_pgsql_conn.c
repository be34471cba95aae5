/*
 * db_pgsql_conn.c - a db_target's fields and conninfo as libpq keywords.
 *
 * The one idea: only what the user gave is passed, so libpq decides the
 * rest in its own order (a service file, then PG* variables), exactly as
 * psql and pgbench do; a conninfo wins over the separate fields (the
 * --pgsql-conninfo help promises it). The target's fallbacks (sysbench's
 * localhost:5432, sbtest, sbtest) are passed only for a setting no PG*
 * variable names and only when no service is in use, because a passed
 * value would beat the service file. The built-in mixes and a Lua script
 * connect through here alike. Nothing is re-parsed here.
 *
 * Beside it, db_pgsql_classify: what an error of a statement or a broken
 * connection is (retry, reconnect, fatal), for the engine and the Lua
 * scripts' SQL alike, so both restart and reconnect on the same errors;
 * and what the count path (db_pgsql.c) and the row path (db_pgsql_rows.c)
 * both do with a live connection: fill in its error, flush after a send.
 * Both paths call down into this file; it calls neither.
 *
 * Never report or classify a failed connection attempt: that is each caller's.
 */
#include "engines/db_pgsql_conn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* An environment variable libpq reads, if set and not empty. */
static const char *db_pgsql_env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* What to pass for one setting: the user's value; else, unless a service
 * or the variables would say, the fallback; else nothing (libpq decides). */
static const char *pick(const char *given, const char *fallback, int service, const char *env1,
                        const char *env2)
{
    if (given && *given)
        return given;
    if (service || db_pgsql_env(env1) || (env2 && db_pgsql_env(env2)))
        return NULL;
    return fallback && *fallback ? fallback : NULL;
}

PGconn *db_pgsql_connectdb(const struct db_target *t, char *err, size_t errlen)
{
    /* A conninfo wins over the separate fields (the --pgsql-conninfo help
     * promises it): libpq takes the last value of a repeated keyword, so the
     * fields go first as defaults and the parsed conninfo after them. */
    PQconninfoOption *ci = NULL;
    size_t nci = 0;
    if (t->conninfo && *t->conninfo) {
        char *perr = NULL;
        ci = PQconninfoParse(t->conninfo, &perr);
        if (!ci) {
            snprintf(err, errlen, "--pgsql-conninfo: %s", perr ? perr : "libpq: out of memory");
            PQfreemem(perr);
            return NULL;
        }
        for (PQconninfoOption *o = ci; o->keyword; o++)
            nci++;
    }
    int service = db_pgsql_env("PGSERVICE") != NULL;
    for (PQconninfoOption *o = ci; o && o->keyword; o++)
        service |= !strcmp(o->keyword, "service") && o->val && *o->val;
    const char **kw = xcalloc(nci + 12, sizeof *kw), **val = xcalloc(nci + 12, sizeof *val);
    size_t n = 0;
    char port[16], timeout[16];
    /* dbscale's name only where nothing else (PGAPPNAME, a service, the
     * conninfo) names the connection; a rank's own name always */
    kw[n] = t->app_name ? "application_name" : "fallback_application_name";
    val[n++] = t->app_name ? t->app_name : "dbscale";
    if (t->connect_timeout_s > 0 || (!service && !db_pgsql_env("PGCONNECT_TIMEOUT"))) {
        snprintf(timeout, sizeof timeout, "%d",
                 t->connect_timeout_s > 0 ? t->connect_timeout_s : 10);
        kw[n] = "connect_timeout";
        val[n++] = timeout;
    }
    const char *host = pick(t->host, t->fallback_host, service, "PGHOST", "PGHOSTADDR");
    if (host) {
        kw[n] = "host";
        val[n++] = host;
    }
    int p = t->port;
    if (p <= 0 && !service && !db_pgsql_env("PGPORT"))
        p = t->fallback_port;
    if (p > 0) {
        snprintf(port, sizeof port, "%d", p);
        kw[n] = "port";
        val[n++] = port;
    }
    const char *user = pick(t->user, t->fallback_user, service, "PGUSER", NULL);
    if (user) {
        kw[n] = "user";
        val[n++] = user;
    }
    if (t->password && *t->password) {
        kw[n] = "password";
        val[n++] = t->password;
    }
    const char *db = pick(t->db, t->fallback_db, service, "PGDATABASE", NULL);
    if (db) {
        kw[n] = "dbname";
        val[n++] = db;
    }
    for (PQconninfoOption *o = ci; o && o->keyword; o++)
        if (o->val && *o->val) {
            kw[n] = o->keyword;
            val[n++] = o->val;
        }
    kw[n] = NULL;
    val[n] = NULL;
    PGconn *pg = PQconnectdbParams(kw, val, 0);
    free(kw);
    free(val);
    PQconninfoFree(ci);
    if (!pg)
        snprintf(err, errlen, "libpq: out of memory");
    return pg;
}

/* The engine decides what an error is: SQLSTATE classes per the manual's
 * appendix A. Retried by default is exactly what sysbench's pgsql driver
 * ignores: deadlocks, serialization failures, and unique violations (its
 * delete/insert pairs collide under concurrency). Anything else, a lock
 * timeout (55P03) too, is retried only when --db-ignore-errors names it. */
enum db_errclass db_pgsql_classify(const char *state, PGconn *pg)
{
    if (PQstatus(pg) == CONNECTION_BAD)
        return DB_ERR_RECONNECT;
    if (!state)
        return DB_ERR_FATAL;
    if (!strcmp(state, "40P01") || !strcmp(state, "40001") || !strcmp(state, "23505"))
        return DB_ERR_RETRY;
    if (!strncmp(state, "08", 2) || !strcmp(state, "57P01") || !strcmp(state, "57P02") ||
        !strcmp(state, "57P03"))
        return DB_ERR_RECONNECT;
    return DB_ERR_FATAL;
}

char *db_pgsql_dollarize(const char *sql)
{
    struct sbuf b = {0};
    int n = 0;
    for (const char *p = sql; *p; p++) {
        if (*p == '?')
            sbuf_printf(&b, "$%d", ++n);
        else
            sbuf_add(&b, p, 1);
    }
    return b.s ? b.s : xstrdup("");
}

const char *db_pgsql_stmt_name(char buf[16], char prefix, int id)
{
    char *q = buf + 15;
    *q = '\0';
    unsigned u = id < 0 ? 0u : (unsigned)id;
    do
        *--q = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    *--q = prefix;
    return q;
}

void db_pgsql_result_error(struct db_error *err, PGconn *pg, const PGresult *r)
{
    const char *st = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    const char *msg = r ? PQresultErrorMessage(r) : PQerrorMessage(pg);
    db_error_set(err, db_pgsql_classify(st, pg), st, msg && *msg ? msg : "unknown libpq error");
}

void db_pgsql_conn_error(struct db_conn *c, struct db_error *err)
{
    const char *state = PQstatus(c->pg) == CONNECTION_BAD ? "08006" : "";
    db_error_set(err, db_pgsql_classify(state, c->pg), state, PQerrorMessage(c->pg));
}

enum db_status db_pgsql_after_send(struct db_conn *c, struct db_error *err)
{
    int f = PQflush(c->pg);
    if (f < 0) {
        db_pgsql_conn_error(c, err);
        return DB_FAILED;
    }
    c->flushing = f == 1;
    return c->flushing ? DB_WAIT_WRITE : DB_WAIT_READ;
}
