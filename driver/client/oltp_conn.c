/*
 * oltp_conn.c - sysbench's connection options as db_targets: the host, port,
 * user, password and database every engine has ("<engine>-host" ...); the
 * engine fills in the fields only it has (db_ops.target_opts).
 *
 * The one idea: a target carries only what the command line (or a --config
 * file) gave; an option's default, sysbench's, goes in as the target's
 * fallback. The engine then lets the client library's own conventions fill
 * the gaps first (PGSERVICE and PG* variables; MariaDB option files and
 * MYSQL_* variables), so what works for psql, pgbench or the mariadb client
 * works here, and sysbench's localhost / sbtest apply only where nothing
 * else says. This room never prints and never connects.
 */
#include "client/oltp_conn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/parse.h"
#include "core/util.h"

static const char *given(const struct opts *o, const char *name)
{
    return opts_isset(o, name) ? opts_str(o, name) : NULL;
}

/* the engine's option for field: "pgsql-" or "mysql-" + field */
static const char *oname(char *buf, size_t len, const struct db_ops *ops, const char *field)
{
    snprintf(buf, len, "%s-%s", ops->name, field);
    return buf;
}

/* A port list, "3306,3307" or "3306-3309": 1..65535 each. Count or -1. */
#define OLTP_MAX_PORTS 64
static int port_list(const char *opt, const char *v, int *ports, char *err, size_t errlen)
{
    long long tmp[OLTP_MAX_PORTS];
    int n = parse_int_list(v, tmp, OLTP_MAX_PORTS);
    for (int k = 0; k < n; k++)
        if (tmp[k] < 1 || tmp[k] > 65535)
            n = -1;
        else
            ports[k] = (int)tmp[k];
    if (n <= 0)
        snprintf(err, errlen,
                 "--%s: '%s' is not a port or a comma list of ports (1-65535, at most %d)", opt, v,
                 OLTP_MAX_PORTS);
    return n;
}

/* Every host with every port, ports fastest, so connection i (which takes
 * target i % ntargets) meets the host and port sysbench's MySQL driver
 * would give it; or, for MySQL sockets, one target per socket. Ports not
 * given are 0: the library's conventions, then the fallback, decide. */
int oltp_conn_targets(struct oltp_setup *s, const struct opts *o, char *err, size_t errlen)
{
    const struct db_ops *e = s->ops; /* the dry run has MariaDB's name and options */
    char n[32], hn[32];
    const char *popt = oname(n, sizeof n, e, "port");
    int ports[OLTP_MAX_PORTS] = {0}, np = 1;
    if (opts_isset(o, popt) && (np = port_list(popt, opts_str(o, popt), ports, err, errlen)) < 0)
        return -1;
    int fallback_port = atoi(opts_str(o, popt)); /* the default, or the first given */
    const char *sock = e->socket_opt ? opts_str(o, e->socket_opt) : NULL;
    int by_socket = sock && strchr(sock, ',');
    const char *hopt = oname(hn, sizeof hn, e, "host");
    if (by_socket && opts_isset(o, hopt)) {
        /* sysbench would use the sockets and leave the host unused */
        snprintf(err, errlen, "--%s lists several sockets and --%s is given: give one of them",
                 e->socket_opt, hopt);
        return -1;
    }
    const char *hosts = by_socket ? sock : given(o, hopt);
    s->hosts = xstrdup(hosts ? hosts : "");
    int nh = 1;
    for (char *p = s->hosts; *p; p++)
        nh += *p == ',';
    if (by_socket)
        np = 1; /* a socket has no port */
    s->targets = xcalloc((size_t)nh * (size_t)np, sizeof *s->targets);
    char *save = NULL, *tok = strtok_r(s->hosts, ",", &save);
    do {
        for (int k = 0; k < np; k++) {
            struct db_target *t = &s->targets[s->ntargets++];
            t->host = by_socket || !tok || !*tok ? NULL : tok;
            t->ps = strcmp(opts_str(o, "db-ps-mode"), "disable") != 0;
            t->port = ports[k];
            t->user = given(o, oname(n, sizeof n, e, "user"));
            t->password = opts_str(o, oname(n, sizeof n, e, "password"));
            t->db = given(o, oname(n, sizeof n, e, "db"));
            t->fallback_host = opts_str(o, hopt);
            t->fallback_port = fallback_port;
            t->fallback_user = opts_str(o, oname(n, sizeof n, e, "user"));
            t->fallback_db = opts_str(o, oname(n, sizeof n, e, "db"));
            if (e->target_opts(t, o, err, errlen) < 0)
                return -1;
            if (by_socket) {
                t->socket = tok && *tok ? tok : NULL;
                t->host = "localhost"; /* as mysql_fields does for one socket */
            }
        }
    } while ((tok = strtok_r(NULL, ",", &save)) != NULL);
    return 0;
}

int oltp_conn_port(const struct oltp_setup *s)
{
    const struct db_target *t = &s->targets[0];
    if (t->port > 0)
        return t->port;
    const char *env = getenv(s->ops->port_env);
    int p = env ? atoi(env) : 0;
    return p > 0 && p < 65536 ? p : t->fallback_port;
}

int oltp_conn_dry_run(struct oltp_setup *s, const struct opts *o, char *err, size_t errlen)
{
    if (!opts_bool(o, "mysql-dry-run"))
        return 0;
    if (s->ops != &db_mysql_ops) {
        snprintf(err, errlen, "--mysql-dry-run: only with --db-driver=mysql");
        return -1;
    }
    s->ops = db_dry_mysql_ops();
    return 0;
}
