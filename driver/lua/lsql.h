/*
 * lsql.h - SQL for Lua scripts, blocking or started-and-stepped: the small interface the sysbench
 * API (con:query, stmt:execute, fetch_row) runs on.
 *
 * db.h's engines return counts, never rows, and a script may read every
 * column of every row, so the Lua room talks to libpq and Connector/C's
 * blocking calls through this face of its own. One lsql_conn belongs to one
 * thread. Errors are the engines' (db.h's struct db_error), classified by
 * the engines' own classifiers.
 */
#ifndef DBSCALE_LSQL_H
#define DBSCALE_LSQL_H

#include <stddef.h>

#include "engines/db.h"

#define LSQL_MAX_PARAMS 256
/* Prepared statements one script connection may hold at once: a script that
 * prepares more gets an error naming the limit. */
#define LSQL_MAX_STMTS 1024

/* Rows left where the client library put them (libpq's PGresult): read
 * in place when the script fetches them, so a statement whose rows nobody
 * reads (most of sysbench's) copies nothing. */
struct lsql_rows {
    /* NULL for SQL NULL, else the value and *len its length */
    const char *(*value)(void *h, long row, int f, size_t *len);
    void (*free)(void *h);
};

/* A whole result: either copied out of the client library (cell[r *
 * nfields + f], NULL for SQL NULL) or kept in it (h, read through rows). */
struct lsql_result {
    long nrows, affected;
    int nfields;
    char **cell;
    size_t *len;
    void *h;
    const struct lsql_rows *rows;
};
void lsql_result_free(struct lsql_result *r);
/* Cell (row, f) of r: NULL for SQL NULL, else the value, *len its length. */
const char *lsql_result_value(const struct lsql_result *r, long row, int f, size_t *len);

struct lsql_conn;

struct lsql_ops {
    const char *name; /* "pgsql", "mysql": what drv:name() says */
    struct lsql_conn *(*connect)(const struct db_target *t, struct db_error *e);
    void (*close)(struct lsql_conn *c);
    /* Plain SQL; res may be NULL. 0 or -1 with e. */
    int (*query)(struct lsql_conn *c, const char *sql, struct lsql_result *res, struct db_error *e);
    /* Statement id (>= 0, caller's numbering) with '?' placeholders. */
    int (*prepare)(struct lsql_conn *c, int id, const char *sql, int nparams, struct db_error *e);
    /* vals[i] NULL = SQL NULL; values are text. */
    int (*execute)(struct lsql_conn *c, int id, const char *const *vals, int np,
                   struct lsql_result *res, struct db_error *e);
    void (*unprepare)(struct lsql_conn *c, int id);

    /* The same statements without blocking, for run's event loops
     * (lloop.c). send_query / send_execute start one; step moves it on
     * once fd() is ready for what the last call asked. Each returns
     * LSQL_WAIT_READ or LSQL_WAIT_WRITE (wait, then step), or LSQL_DONE with
     * *rc 0 (res filled) or -1 (e filled), as query / execute would. The
     * strings passed need not outlive the call. */
    int (*send_query)(struct lsql_conn *c, const char *sql, struct lsql_result *res,
                      struct db_error *e, int *rc);
    int (*send_execute)(struct lsql_conn *c, int id, const char *const *vals, int np,
                        struct lsql_result *res, struct db_error *e, int *rc);
    int (*step)(struct lsql_conn *c, struct lsql_result *res, struct db_error *e, int *rc);
    int (*fd)(struct lsql_conn *c);
};

enum { LSQL_DONE = 0, LSQL_WAIT_READ = 1, LSQL_WAIT_WRITE = 2 };

extern const struct lsql_ops lsql_pgsql_ops;
extern const struct lsql_ops lsql_mysql_ops;

/* By db.h's engine name ("pgsql", "mysql"); NULL if unknown. */
const struct lsql_ops *lsql_find(const char *engine);

#endif
