/*
 * db_engines.c - the table of database engines and the one lookup by name:
 * what --help lists the options of, and what --db-driver picks.
 *
 * The one idea: the table names each engine's struct db_ops and nothing
 * else, so it sits above the engines (db_pgsql*.c, db_mysql*.c), which in
 * turn call down into db.c; adding an engine is one line here. It must
 * never hold engine code.
 */
#include "engines/db.h"

#include <stddef.h>
#include <strings.h>

const struct db_ops *const db_engines[] = {&db_pgsql_ops, &db_mysql_ops, NULL};

const struct db_ops *db_find(const char *name)
{
    if (!name)
        return NULL;
    if (!strcasecmp(name, "pgsql") || !strcasecmp(name, "postgresql") ||
        !strcasecmp(name, "postgres") || !strcasecmp(name, "pg"))
        return &db_pgsql_ops;
    if (!strcasecmp(name, "mysql") || !strcasecmp(name, "mariadb"))
        return &db_mysql_ops;
    return NULL;
}
