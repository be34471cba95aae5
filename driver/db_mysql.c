/* db_mysql.c - placeholder until the MariaDB backend lands. */
#include "db.h"

const struct db_ops db_mysql_ops = {.name = "mysql"};
