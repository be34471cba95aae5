/*
 * lsql.c - what the two blocking SQL backends share: finding one by the
 * engine's name, reading and freeing a result.
 */
#include <stdlib.h>
#include <string.h>

#include "lua/lsql.h"

const struct lsql_ops *lsql_find(const char *engine)
{
    if (!engine)
        return NULL;
    if (!strcmp(engine, "pgsql"))
        return &lsql_pgsql_ops;
    if (!strcmp(engine, "mysql"))
        return &lsql_mysql_ops;
    return NULL;
}

void lsql_result_free(struct lsql_result *r)
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

const char *lsql_result_value(const struct lsql_result *r, long row, int f, size_t *len)
{
    if (r->rows)
        return r->h ? r->rows->value(r->h, row, f, len) : NULL;
    if (!r->cell)
        return NULL;
    long k = row * r->nfields + f;
    *len = r->len[k];
    return r->cell[k];
}
