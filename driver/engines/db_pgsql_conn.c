/*
 * db_pgsql_conn.c - a db_target's fields and conninfo as libpq keywords.
 *
 * The one idea: a conninfo wins over the separate fields (the
 * --pgsql-conninfo help promises it), for the built-in mixes and a Lua
 * script alike, because both connect through here. libpq itself reads the
 * environment and service files; nothing is re-parsed here.
 *
 * Never report or classify a failed connection: that is each caller's.
 */
#include "db_pgsql_conn.h"

#include <stdio.h>
#include <stdlib.h>

#include "util.h"

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
    const char **kw = xcalloc(nci + 12, sizeof *kw), **val = xcalloc(nci + 12, sizeof *val);
    size_t n = 0;
    char port[16], timeout[16];
    snprintf(timeout, sizeof timeout, "%d", t->connect_timeout_s > 0 ? t->connect_timeout_s : 10);
    kw[n] = "application_name";
    val[n++] = t->app_name ? t->app_name : "dbscale";
    kw[n] = "connect_timeout";
    val[n++] = timeout;
    if (t->host && *t->host) {
        kw[n] = "host";
        val[n++] = t->host;
    }
    if (t->port > 0) {
        snprintf(port, sizeof port, "%d", t->port);
        kw[n] = "port";
        val[n++] = port;
    }
    if (t->user && *t->user) {
        kw[n] = "user";
        val[n++] = t->user;
    }
    if (t->password && *t->password) {
        kw[n] = "password";
        val[n++] = t->password;
    }
    if (t->db && *t->db) {
        kw[n] = "dbname";
        val[n++] = t->db;
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
