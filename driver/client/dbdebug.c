/*
 * dbdebug.c - sysbench's --db-debug for the built-in workloads: every
 * statement a connection runs, with its parameters and how it ended.
 *
 * The one idea: a wrapper op table. The connection machine and the engines
 * stay as they are (no "if debug" on the hot path of a normal run); the
 * wrapper holds the inner connection and the statement in flight, and writes
 * one line when start() or cont() says it is done or failed. A line is built
 * whole and written with one call, so lines from several loop threads never
 * interleave. It must never change what the inner engine returns.
 */
#include "client/dbdebug.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static const struct db_ops *inner;
static FILE *sink;
static struct db_ops wrapped;
static atomic_int next_id;

struct db_conn {
    struct db_conn *in;
    int id;           /* connection number, from 1, in the order they opened */
    char stmt[1024];  /* the statement in flight, as the line will show it */
    const char **sql; /* registered statements' text by id: start() gets only the id */
    int nsql;
};

/* One whole line per call: fputs on a line built first, so loops sharing
 * the sink never interleave inside a line. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
    char line[1400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fputs(line, sink);
}

/* How a statement ended: "ok", or the engine's code and message. */
static void ended(const struct db_conn *c, const char *what, enum db_status st,
                  const struct db_error *e)
{
    if (st == DB_DONE)
        say("DEBUG: connection %d: %s -> ok\n", c->id, what);
    else if (st == DB_FAILED)
        say("DEBUG: connection %d: %s -> error %s: %s\n", c->id, what, e->code[0] ? e->code : "?",
            e->msg);
}

static struct db_conn *w_connect(const struct db_target *t, struct db_error *err)
{
    struct db_conn *c = xcalloc(1, sizeof *c);
    c->in = inner->connect(t, err);
    const char *host = t->socket ? t->socket : t->host ? t->host : "(default)";
    if (!c->in) {
        say("DEBUG: connect to %s port %d failed: %s\n", host, t->port, err->msg);
        free(c);
        return NULL;
    }
    c->id = atomic_fetch_add(&next_id, 1) + 1;
    say("DEBUG: connection %d: connected to %s port %d\n", c->id, host, t->port);
    return c;
}

static void w_close(struct db_conn *c)
{
    inner->close(c->in);
    free(c->sql);
    free(c);
}

static int w_fd(struct db_conn *c)
{
    return inner->fd(c->in);
}

static int w_prepare(struct db_conn *c, int id, const char *sql, int np, struct db_error *err)
{
    int r = inner->prepare(c->in, id, sql, np, err);
    if (id >= 0 && id >= c->nsql) { /* the text outlives the connection (the workload's) */
        c->sql = xrealloc(c->sql, (size_t)(id + 1) * sizeof *c->sql);
        memset(c->sql + c->nsql, 0, (size_t)(id + 1 - c->nsql) * sizeof *c->sql);
        c->nsql = id + 1;
    }
    if (id >= 0)
        c->sql[id] = sql;
    char what[1100];
    snprintf(what, sizeof what, "prepare #%d %s", id, sql);
    ended(c, what, r < 0 ? DB_FAILED : DB_DONE, err);
    return r;
}

/* "SQL" [1, 'abc'] into c->stmt, cut to fit */
static void remember(struct db_conn *c, const char *sql, const struct db_param *p, int np)
{
    struct sbuf b = {0};
    sbuf_printf(&b, "%s", sql ? sql : "?");
    for (int k = 0; k < np; k++) {
        sbuf_printf(&b, "%s", k ? ", " : " [");
        if (p[k].type == DB_PINT)
            sbuf_printf(&b, "%lld", p[k].i);
        else
            sbuf_printf(&b, "'%.*s'", p[k].len > 40 ? 40 : p[k].len, p[k].s);
    }
    if (np)
        sbuf_printf(&b, "]");
    snprintf(c->stmt, sizeof c->stmt, "%s", b.s ? b.s : "");
    sbuf_free(&b);
}

static enum db_status w_start(struct db_conn *c, int id, const char *sql, const struct db_param *p,
                              int np, struct db_error *err)
{
    remember(c, !sql && id >= 0 && id < c->nsql ? c->sql[id] : sql, p, np);
    enum db_status st = inner->start(c->in, id, sql, p, np, err);
    ended(c, c->stmt, st, err);
    return st;
}

static enum db_status w_cont(struct db_conn *c, struct db_error *err)
{
    enum db_status st = inner->cont(c->in, err);
    ended(c, c->stmt, st, err);
    return st;
}

static int w_bulk_begin(struct db_conn *c, const char *table, const char *cols,
                        struct db_error *err)
{
    return inner->bulk_begin(c->in, table, cols, err);
}

static int w_bulk_row(struct db_conn *c, const char *const *vals, int nvals, struct db_error *err)
{
    return inner->bulk_row(c->in, vals, nvals, err);
}

static int w_bulk_end(struct db_conn *c, struct db_error *err)
{
    return inner->bulk_end(c->in, err);
}

static char *w_query_value(struct db_conn *c, const char *sql, struct db_error *err)
{
    char *v = inner->query_value(c->in, sql, err);
    if (v)
        say("DEBUG: connection %d: %s -> '%.200s'\n", c->id, sql, v);
    else
        ended(c, sql, DB_FAILED, err);
    return v;
}

static const char *w_server_version(struct db_conn *c)
{
    return inner->server_version(c->in);
}

const struct db_ops *dbdebug_ops(const struct db_ops *in, FILE *out)
{
    inner = in;
    sink = out;
    wrapped = *in; /* name and capabilities */
    wrapped.connect = w_connect;
    wrapped.close = w_close;
    wrapped.fd = w_fd;
    wrapped.prepare = w_prepare;
    wrapped.start = w_start;
    wrapped.cont = w_cont;
    wrapped.bulk_begin = in->bulk_begin ? w_bulk_begin : NULL;
    wrapped.bulk_row = in->bulk_row ? w_bulk_row : NULL;
    wrapped.bulk_end = in->bulk_end ? w_bulk_end : NULL;
    wrapped.query_value = in->query_value ? w_query_value : NULL;
    wrapped.server_version = in->server_version ? w_server_version : NULL;
    /* the built-in mixes read no rows: the row path is not traced, and
     * the inner engine's must not be called with the wrapper's connection */
    wrapped.start_rows = NULL;
    wrapped.unprepare = NULL;
    return &wrapped;
}
