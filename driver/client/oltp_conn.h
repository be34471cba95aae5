/*
 * oltp_conn.h - the connection targets of prepare, run and sweep, built from
 * sysbench's --pgsql-* / --mysql-* options.
 */
#ifndef DBSCALE_OLTP_CONN_H
#define DBSCALE_OLTP_CONN_H

#include <stddef.h>

#include "client/oltp.h"

/* s->targets / s->ntargets / s->hosts for engine s->ops (one target per
 * host of the comma list). 0, or -1 with a message naming the option. */
int oltp_conn_targets(struct oltp_setup *s, const struct opts *o, char *err, size_t errlen);

/* --mysql-dry-run: s->ops becomes db_dry_mysql_ops(). -1 with a message
 * for another engine. */
int oltp_conn_dry_run(struct oltp_setup *s, const struct opts *o, char *err, size_t errlen);

/* The TCP port targets[0] most likely reaches (given, else PGPORT /
 * MYSQL_TCP_PORT, else sysbench's default), for finding the server's
 * process by its port; a service or option file may still say otherwise. */
int oltp_conn_port(const struct oltp_setup *s);

#endif
