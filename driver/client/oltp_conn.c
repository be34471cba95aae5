/*
 * oltp_conn.c - sysbench's connection options as db_targets.
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
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/parse.h"
#include "core/util.h"

static const char *given(const struct opts *o, const char *name)
{
    return opts_isset(o, name) ? opts_str(o, name) : NULL;
}

/* "pgsql-" or "mysql-" + field */
static const char *oname(char *buf, size_t len, int pg, const char *field)
{
    snprintf(buf, len, "%s-%s", pg ? "pgsql" : "mysql", field);
    return buf;
}

int oltp_conn_ssl_mode(const char *v, enum db_ssl *mode)
{
    static const struct {
        const char *name;
        enum db_ssl mode;
    } modes[] = {
        {"off", DB_SSL_DISABLED},
        {"on", DB_SSL_REQUIRED},
        {"DISABLED", DB_SSL_DISABLED},
        {"PREFERRED", DB_SSL_PREFERRED},
        {"REQUIRED", DB_SSL_REQUIRED},
        {"VERIFY_CA", DB_SSL_VERIFY_CA},
        {"VERIFY_IDENTITY", DB_SSL_VERIFY_IDENTITY},
    };
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (!strcasecmp(v, modes[i].name)) {
            *mode = modes[i].mode;
            return 0;
        }
    return -1;
}

/* A readable regular file, or -1 with the message (libmariadb ignores a
 * missing option file, and a missing certificate fails late and vaguely). */
static int readable(const char *opt, const char *path, char *err, size_t errlen)
{
    struct stat st;
    if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || access(path, R_OK) < 0) {
        snprintf(err, errlen, "--%s=%s: not a readable file", opt, path);
        return -1;
    }
    return 0;
}

/* sysbench 1.0.20's --mysql-ssl=on: these names in the current directory */
static const char *cwd_file(const char *name)
{
    return access(name, R_OK) == 0 ? name : NULL;
}

static int mysql_tls(struct db_target *t, const struct opts *o, char *err, size_t errlen)
{
    const char *v = opts_str(o, "mysql-ssl");
    if (opts_isset(o, "mysql-ssl") && oltp_conn_ssl_mode(v, &t->ssl) < 0) {
        snprintf(err, errlen,
                 "--mysql-ssl: '%s' is not on, off, DISABLED, PREFERRED, REQUIRED, VERIFY_CA or "
                 "VERIFY_IDENTITY",
                 v);
        return -1;
    }
    static const char *const files[] = {"mysql-ssl-ca", "mysql-ssl-cert", "mysql-ssl-key"};
    const char **dst[] = {&t->ssl_ca, &t->ssl_cert, &t->ssl_key};
    int nfiles = 0;
    for (int i = 0; i < 3; i++) {
        *dst[i] = opts_str(o, files[i]);
        if (*dst[i] && readable(files[i], *dst[i], err, errlen) < 0)
            return -1;
        nfiles += *dst[i] != NULL;
    }
    t->ssl_cipher = opts_str(o, "mysql-ssl-cipher");
    if (!t->ssl_cert != !t->ssl_key) {
        snprintf(err, errlen, "--mysql-ssl-cert and --mysql-ssl-key go together");
        return -1;
    }
    /* as the mariadb client's --ssl-ca: a file asks for TLS (never accepted
     * and then ignored, as sysbench does without --mysql-ssl) */
    if (nfiles && t->ssl == DB_SSL_DISABLED) {
        snprintf(err, errlen, "--mysql-ssl=%s and --mysql-ssl-ca/-cert/-key contradict each other",
                 v);
        return -1;
    }
    if (t->ssl_cipher && t->ssl == DB_SSL_DISABLED) {
        snprintf(err, errlen, "--mysql-ssl-cipher needs TLS, but --mysql-ssl=%s", v);
        return -1;
    }
    if ((nfiles || t->ssl_cipher) && t->ssl == DB_SSL_DEFAULT)
        t->ssl = DB_SSL_REQUIRED;
    if (!nfiles && opts_isset(o, "mysql-ssl") && !strcasecmp(v, "on")) {
        t->ssl_ca = cwd_file("cacert.pem");
        t->ssl_cert = cwd_file("client-cert.pem");
        t->ssl_key = t->ssl_cert ? cwd_file("client-key.pem") : NULL;
        if (!t->ssl_key)
            t->ssl_cert = NULL;
    }
    t->compression = opts_bool(o, "mysql-compression");
    return 0;
}

static int mysql_fields(struct db_target *t, const struct opts *o, char *err, size_t errlen)
{
    t->socket = opts_str(o, "mysql-socket");
    /* sysbench: a socket is reached as host "localhost" (a host from an
     * option file would otherwise win over it) */
    if (t->socket && !t->host)
        t->host = "localhost";
    t->defaults_file = opts_str(o, "mysql-defaults-file");
    if (t->defaults_file && readable("mysql-defaults-file", t->defaults_file, err, errlen) < 0)
        return -1; /* else the user would silently become root */
    return mysql_tls(t, o, err, errlen);
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
    int pg = s->ops == &db_pgsql_ops; /* the dry run is MariaDB's */
    char n[32];
    const char *popt = oname(n, sizeof n, pg, "port");
    int ports[OLTP_MAX_PORTS] = {0}, np = 1;
    if (opts_isset(o, popt) && (np = port_list(popt, opts_str(o, popt), ports, err, errlen)) < 0)
        return -1;
    int fallback_port = atoi(opts_str(o, popt)); /* the default, or the first given */
    const char *sock = pg ? NULL : opts_str(o, "mysql-socket");
    int by_socket = sock && strchr(sock, ',');
    if (by_socket && opts_isset(o, "mysql-host")) {
        /* sysbench would use the sockets and leave the host unused */
        snprintf(err, errlen,
                 "--mysql-socket lists several sockets and --mysql-host is given: "
                 "give one of them");
        return -1;
    }
    const char *hosts = by_socket ? sock : given(o, oname(n, sizeof n, pg, "host"));
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
            t->user = given(o, oname(n, sizeof n, pg, "user"));
            t->password = opts_str(o, oname(n, sizeof n, pg, "password"));
            t->db = given(o, oname(n, sizeof n, pg, "db"));
            t->fallback_host = opts_str(o, oname(n, sizeof n, pg, "host"));
            t->fallback_port = fallback_port;
            t->fallback_user = opts_str(o, oname(n, sizeof n, pg, "user"));
            t->fallback_db = opts_str(o, oname(n, sizeof n, pg, "db"));
            if (pg) { /* what the conninfo says wins; the fields fill in the rest */
                t->conninfo = opts_str(o, "pgsql-conninfo");
                continue;
            }
            if (mysql_fields(t, o, err, errlen) < 0)
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
    const char *env = getenv(s->ops == &db_pgsql_ops ? "PGPORT" : "MYSQL_TCP_PORT");
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
