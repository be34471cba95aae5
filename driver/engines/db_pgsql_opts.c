/*
 * db_pgsql_opts.c - the PostgreSQL engine's own options, as sysbench's pgsql
 * driver declares its own: where and how to connect, and the target field
 * only this engine has (a libpq conninfo string, which wins over the rest).
 * The host and port lists every engine shares are built in
 * client/oltp_conn.c. Never prints, never connects.
 */
#include "engines/db_pgsql_conn.h"
#include "core/options.h"

/* clang-format off */
static const struct optdef db_pgsql_optdefs[] = {
    {"pgsql-host", OPT_STR, "localhost", "PostgreSQL host(s), comma-separated: connections spread round-robin"},
    {"pgsql-port", OPT_STR, "5432", "PostgreSQL port(s), comma-separated: every host with every port, as sysbench pairs MySQL's"},
    {"pgsql-user", OPT_STR, "sbtest", "PostgreSQL user"},
    {"pgsql-password", OPT_SECRET, NULL, "PostgreSQL password (prefer PGPASSWORD or PGPASSFILE)"},
    {"pgsql-db", OPT_STR, "sbtest", "PostgreSQL database"},
    {"pgsql-conninfo", OPT_STR, NULL, "libpq conninfo string or URI; what it says wins over the pgsql-* options, which fill in the rest (shown and stored with any password masked)"},
    {"pgsql-variant", OPT_REFUSED, NULL, "the redshift variant is not implemented"},
};
/* clang-format on */

const struct optdef *db_pgsql_options(size_t *n)
{
    *n = sizeof db_pgsql_optdefs / sizeof db_pgsql_optdefs[0];
    return db_pgsql_optdefs;
}

int db_pgsql_target_opts(struct db_target *t, const struct opts *o, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    t->conninfo = opts_str(o, "pgsql-conninfo");
    return 0;
}
