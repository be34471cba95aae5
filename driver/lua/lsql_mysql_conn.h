/*
 * lsql_mysql_conn.h - a Lua script's MariaDB connection, shared by the text
 * half (lsql_mysql.c) and the prepared-statement half (lsql_mysql_stmt.c).
 * Private to driver/lua.
 */
#ifndef DBSCALE_LSQL_MYSQL_CONN_H
#define DBSCALE_LSQL_MYSQL_CONN_H

#include <mysql.h>

#include "lua/lsql.h"
#include "core/util.h"

struct lsql_conn {
    MYSQL *m;
    char *sql[LSQL_MAX_STMTS];      /* statements without parameters, sent as text */
    MYSQL_STMT *st[LSQL_MAX_STMTS]; /* the others: the server's prepared statements */
    struct sbuf q;                  /* the text or the bound values of the statement going */
    MYSQL_BIND *pb;                 /* parameter binds, grown as needed */
    int npb;
    /* a stepped statement: 1 = a text query is going, 2 = its result,
     * 3 = a prepared statement's execute, 4 = its result; cur = its id;
     * status = the MYSQL_WAIT_* the library waits for */
    int phase, status, cur;
    MYSQL_RES *r; /* phase 2's result, once stored */
};

/* A server-side prepared statement as c->st[id]; 0 or -1 with e. */
int lsql_mysql_stmt_prepare(struct lsql_conn *c, int id, const char *sql, int np,
                            struct db_error *e);
/* Bind vals (text, NULL = SQL NULL) to c->st[id], copied into c->q. */
int lsql_mysql_stmt_bind(struct lsql_conn *c, int id, const char *const *vals, int np,
                         struct db_error *e);
/* After execute (and store_result when it has fields): the rows or the
 * affected count copied into res; 0 or -1 with e. */
int lsql_mysql_stmt_take(struct lsql_conn *c, int id, struct lsql_result *res, struct db_error *e);
void lsql_mysql_stmt_err(struct lsql_conn *c, int id, struct db_error *e);

#endif
