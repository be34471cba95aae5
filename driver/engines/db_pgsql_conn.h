/*
 * db_pgsql_conn.h - the one way a db_target becomes a libpq connection, and
 * the one classifier of libpq's errors, shared by the PostgreSQL backend and
 * the Lua scripts' connection.
 */
#ifndef DBSCALE_DB_PGSQL_CONN_H
#define DBSCALE_DB_PGSQL_CONN_H

#include <libpq-fe.h>
#include <stddef.h>

#include "engines/db.h"

/* PQconnectdbParams with t's fields as defaults and t->conninfo over them.
 * NULL with err set when the conninfo does not parse or memory runs out;
 * otherwise the connection, whose PQstatus the caller checks. */
PGconn *db_pgsql_connectdb(const struct db_target *t, char *err, size_t errlen);

/* What an error is, from its SQLSTATE (NULL: none) and pg's state: the one
 * classifier of the engine and the Lua scripts' SQL. */
enum db_errclass db_pgsql_classify(const char *state, PGconn *pg);

/* sql with its '?' placeholders made $1, $2 ... (sysbench's pgsql driver
 * does the same; sbtest SQL and sysbench's scripts have no '?' inside
 * literals), malloc'd: the one rewriting of the engine and the scripts. */
char *db_pgsql_dollarize(const char *sql);

/* The server-side name of statement id: prefix then the id's digits, in
 * buf (returned). By hand, not snprintf: it is made for every statement sent. */
const char *db_pgsql_stmt_name(char buf[16], char prefix, int id);

#endif
