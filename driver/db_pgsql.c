/* db_pgsql.c - placeholder until the PostgreSQL backend lands. */
#include "db.h"

const struct db_ops db_pgsql_ops = {.name = "pgsql"};
