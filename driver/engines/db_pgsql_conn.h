/*
 * db_pgsql_conn.h - the PostgreSQL backend's connection, shared by its files:
 * db_pgsql.c (connect, prepare, the count path), db_pgsql_rows.c (the row
 * path) and db_pgsql_conn.c (the one way a db_target becomes a libpq
 * connection, the one classifier of libpq's errors, the '?' rewriting, and
 * the connection's error and flush that both paths use).
 * Private to the engine but for the connect and the classifier, which the
 * collectors (why/) use too.
 */
#ifndef DBSCALE_DB_PGSQL_CONN_H
#define DBSCALE_DB_PGSQL_CONN_H

#include <libpq-fe.h>
#include <stddef.h>

#include "engines/db.h"
#include "core/util.h"

#define PG_MAX_PARAMS 256

/* The count path's parameters as libpq's text (db_pgsql.c), made at its
 * first statement: a script's connection never needs them. */
struct pg_params {
    char ints[PG_MAX_PARAMS][24];
    const char *vals[PG_MAX_PARAMS];
    char scratch[PG_MAX_PARAMS][128];
};

/* srv[id]: what the server holds under statement id's name */
enum { PG_SRV_NONE, PG_SRV_LIVE, PG_SRV_STALE /* an earlier statement's: DEALLOCATE first */ };

struct db_conn {
    PGconn *pg;
    int ps;
    char **text;        /* [nstmts] the '?' SQL of each registered statement */
    unsigned char *srv; /* [nstmts] PG_SRV_* */
    int nstmts;         /* grown by prepare to the highest id + 1 */
    int flushing;       /* PQflush still has data to send */
    int failed;         /* an error result arrived; report it once drained */
    struct db_error pending;
    struct sbuf qbuf; /* ps off: the query text being built */
    struct sbuf copy; /* bulk: rows not yet handed to libpq */
    struct pg_params *pp;
    /* the row path: where the running statement's reply goes (NULL: the
     * count path is running), its latest result so far, and whether the
     * ROLLBACK after its error is going (the error waits in pending) */
    struct db_result *res;
    PGresult *last;
    int rolling;
    char version[32];
};

/* db_pgsql_conn.c: the connection's error (its status and libpq's message) */
void db_pgsql_conn_error(struct db_conn *c, struct db_error *err);
/* db_pgsql_conn.c: after a send, flush what libpq holds: DB_WAIT_WRITE while
 * some is left, DB_WAIT_READ once out, DB_FAILED */
enum db_status db_pgsql_after_send(struct db_conn *c, struct db_error *err);
/* db_pgsql_rows.c: the row path's start, and cont while c->res is set */
enum db_status db_pgsql_start_rows(struct db_conn *c, int id, const char *sql,
                                   const char *const *vals, int np, struct db_result *res,
                                   struct db_error *err);
enum db_status db_pgsql_rows_cont(struct db_conn *c, struct db_error *err);
/* db_pgsql_opts.c: the engine's options, and the target field they add */
const struct optdef *db_pgsql_options(size_t *n);
int db_pgsql_target_opts(struct db_target *t, const struct opts *o, char *err, size_t errlen);

/* PQconnectdbParams with t's fields as defaults and t->conninfo over them.
 * NULL with err set when the conninfo does not parse or memory runs out;
 * otherwise the connection, whose PQstatus the caller checks. */
PGconn *db_pgsql_connectdb(const struct db_target *t, char *err, size_t errlen);

/* What an error is, from its SQLSTATE (NULL: none) and pg's state: the one
 * classifier of the engine and the Lua scripts' SQL. */
enum db_errclass db_pgsql_classify(const char *state, PGconn *pg);
/* err from a failed result r (its SQLSTATE, classified, and message), or
 * from the connection when r is NULL: the one way an error is filled in. */
void db_pgsql_result_error(struct db_error *err, PGconn *pg, const PGresult *r);

/* sql with its '?' placeholders made $1, $2 ... (sysbench's pgsql driver
 * does the same; sbtest SQL and sysbench's scripts have no '?' inside
 * literals), malloc'd: the one rewriting of the engine and the scripts. */
char *db_pgsql_dollarize(const char *sql);

/* The server-side name of statement id: prefix then the id's digits, in
 * buf (returned). By hand, not snprintf: it is made for every statement sent. */
const char *db_pgsql_stmt_name(char buf[16], char prefix, int id);

#endif
