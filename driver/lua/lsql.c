/*
 * lsql.c - what the two blocking SQL backends share: finding one by the
 * engine's name and freeing a copied result.
 */
#include <stdlib.h>
#include <string.h>

#include "lsql.h"

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
    long n = r->nrows * r->nfields;
    for (long i = 0; r->cell && i < n; i++)
        free(r->cell[i]);
    free(r->cell);
    free(r->len);
    memset(r, 0, sizeof *r);
}
