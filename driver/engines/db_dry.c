/*
 * db_dry.c - sysbench's --mysql-dry-run: an engine that takes every call as
 * done at once, without a server.
 *
 * The one idea: the MariaDB backend's table with each operation replaced by
 * one that succeeds immediately, and its capabilities (DDL, settings) kept,
 * so prepare, run and cleanup go through exactly the statements they would
 * send and what is measured is the client alone: the loops, the random
 * numbers, the statement building. start() always returns DB_DONE, so no
 * socket is ever waited on.
 *
 * It must never open a socket or pretend to have read a value: every query
 * answers "" (no rows), so a caller sees that nothing is known.
 */
#include "engines/db.h"
#include "core/util.h"

#include <pthread.h>
#include <stdlib.h>

struct db_conn {
    int ps;
};

static struct db_conn *dry_connect(const struct db_target *t, struct db_error *err)
{
    (void)err;
    struct db_conn *c = xcalloc(1, sizeof *c);
    c->ps = t->ps;
    return c;
}

static void dry_close(struct db_conn *c)
{
    free(c);
}

static int dry_fd(struct db_conn *c)
{
    (void)c;
    return -1;
}

static int dry_prepare(struct db_conn *c, int id, const char *sql, int nparams,
                       struct db_error *err)
{
    (void)c, (void)id, (void)sql, (void)nparams, (void)err;
    return 0;
}

static enum db_status dry_start(struct db_conn *c, int id, const char *sql,
                                const struct db_param *p, int np, struct db_error *err)
{
    (void)c, (void)id, (void)sql, (void)p, (void)np, (void)err;
    return DB_DONE;
}

static enum db_status dry_cont(struct db_conn *c, struct db_error *err)
{
    (void)c, (void)err;
    return DB_DONE;
}

static int dry_bulk_begin(struct db_conn *c, const char *table, const char *cols,
                          struct db_error *err)
{
    (void)c, (void)table, (void)cols, (void)err;
    return 0;
}

static int dry_bulk_row(struct db_conn *c, const char *const *vals, int nvals, struct db_error *err)
{
    (void)c, (void)vals, (void)nvals, (void)err;
    return 0;
}

static int dry_bulk_end(struct db_conn *c, struct db_error *err)
{
    (void)c, (void)err;
    return 0;
}

static char *dry_query_value(struct db_conn *c, const char *sql, struct db_error *err)
{
    (void)c, (void)sql, (void)err;
    return xstrdup("");
}

static const char *dry_server_version(struct db_conn *c)
{
    (void)c;
    return "dry run (no server)";
}

static struct db_ops dry_ops;
static pthread_once_t dry_once = PTHREAD_ONCE_INIT;

static void dry_init(void)
{
    dry_ops = db_mysql_ops; /* the capabilities stay MariaDB's */
    dry_ops.connect = dry_connect;
    dry_ops.close = dry_close;
    dry_ops.fd = dry_fd;
    dry_ops.prepare = dry_prepare;
    dry_ops.start = dry_start;
    dry_ops.cont = dry_cont;
    dry_ops.bulk_begin = dry_bulk_begin;
    dry_ops.bulk_row = dry_bulk_row;
    dry_ops.bulk_end = dry_bulk_end;
    dry_ops.query_value = dry_query_value;
    dry_ops.server_version = dry_server_version;
    dry_ops.start_rows = NULL; /* nothing to read rows from */
    dry_ops.unprepare = NULL;
}

const struct db_ops *db_dry_mysql_ops(void)
{
    pthread_once(&dry_once, dry_init);
    return &dry_ops;
}
