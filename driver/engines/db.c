/*
 * db.c - the one way an error is filled in, a reply's rows freed and read,
 * and the blocking wrapper over the async statement API: what every engine
 * and every caller shares. Everything engine-specific (which error is which
 * class) lives in db_pgsql*.c and db_mysql*.c, which call down into this
 * file; the table of engines that names them is db_engines.c, above them.
 */
#include "engines/db.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void db_error_set(struct db_error *e, enum db_errclass cls, const char *code, const char *msg)
{
    e->cls = cls;
    e->rolled_back = 0;
    snprintf(e->code, sizeof e->code, "%s", code ? code : "");
    snprintf(e->msg, sizeof e->msg, "%s", msg ? msg : "");
    size_t l = strlen(e->msg);
    while (l && (e->msg[l - 1] == '\n' || e->msg[l - 1] == ' '))
        e->msg[--l] = '\0';
}

/* Wait for what st asks and step c on until it is done or failed. */
static enum db_status wait_done(const struct db_ops *ops, struct db_conn *c, enum db_status st,
                                struct db_error *err)
{
    while (st == DB_WAIT_READ || st == DB_WAIT_WRITE) {
        struct pollfd pfd = {.fd = ops->fd(c), .events = st == DB_WAIT_READ ? POLLIN : POLLOUT};
        int r = poll(&pfd, 1, -1);
        if (r < 0 && errno != EINTR) {
            err->cls = DB_ERR_RECONNECT;
            strcpy(err->code, "poll");
            strncpy(err->msg, strerror(errno), sizeof err->msg - 1);
            return DB_FAILED;
        }
        st = ops->cont(c, err);
    }
    return st;
}

enum db_status db_run(const struct db_ops *ops, struct db_conn *c, int id, const char *sql,
                      const struct db_param *p, int np, struct db_error *err)
{
    return wait_done(ops, c, ops->start(c, id, sql, p, np, err), err);
}

enum db_status db_run_rows(const struct db_ops *ops, struct db_conn *c, int id, const char *sql,
                           const char *const *vals, int np, struct db_result *res,
                           struct db_error *err)
{
    return wait_done(ops, c, ops->start_rows(c, id, sql, vals, np, res, err), err);
}

void db_result_free(struct db_result *r)
{
    if (!r)
        return;
    if (r->rows && r->h)
        r->rows->free(r->h);
    long n = r->nrows * r->nfields;
    for (long i = 0; r->cell && i < n; i++)
        free(r->cell[i]);
    free(r->cell);
    free(r->len);
    memset(r, 0, sizeof *r);
}

const char *db_result_value(const struct db_result *r, long row, int f, size_t *len)
{
    if (r->rows)
        return r->h ? r->rows->value(r->h, row, f, len) : NULL;
    if (!r->cell)
        return NULL;
    long k = row * r->nfields + f;
    *len = r->len[k];
    return r->cell[k];
}

int db_exec(const struct db_ops *ops, struct db_conn *c, const char *sql, struct db_error *err)
{
    return db_run(ops, c, -1, sql, NULL, 0, err) == DB_DONE ? 0 : -1;
}

void db_target_keep_how(struct db_target *t, const struct db_target *from)
{
    t->ssl = from->ssl;
    t->ssl_ca = from->ssl_ca;
    t->ssl_cert = from->ssl_cert;
    t->ssl_key = from->ssl_key;
    t->ssl_cipher = from->ssl_cipher;
    t->compression = from->compression;
}
