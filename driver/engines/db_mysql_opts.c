/*
 * db_mysql_opts.c - the MariaDB/MySQL engine's own options, as sysbench's
 * mysql driver declares its own: where and how to connect (--mysql-host,
 * --mysql-socket, option files, TLS, compression, the dry run), and the
 * target fields they fill.
 *
 * The one idea: a target carries only what was given; TLS files are checked
 * here, before anything connects (libmariadb ignores a missing option file,
 * and a missing certificate fails late and vaguely). Never prints, never
 * connects. The host and port lists every engine shares are built in
 * client/oltp_conn.c.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engines/db_mysql_conn.h"
#include "core/options.h"

/* clang-format off */
static const struct optdef db_mysql_optdefs[] = {
    {"mysql-host", OPT_STR, "localhost", "MySQL host(s), comma-separated: connections spread round-robin"},
    {"mysql-port", OPT_STR, "3306", "MySQL port(s), comma-separated: connection i uses port i % nports of host (i / nports) % nhosts, as sysbench"},
    {"mysql-socket", OPT_STR, NULL, "MySQL unix socket(s), comma-separated (connections spread round-robin; host and port are then unused)"},
    {"mysql-user", OPT_STR, "sbtest", "MySQL user"},
    {"mysql-password", OPT_SECRET, NULL, "MySQL password (prefer --mysql-defaults-file)"},
    {"mysql-db", OPT_STR, "sbtest", "MySQL database"},
    {"mysql-defaults-file", OPT_STR, NULL, "MariaDB option file read instead of the default ones ([client] user, password, host ...)"},
    /* TLS, compression, dry run, as sysbench */
    {"mysql-ssl", OPT_STR, "off", "TLS: on|off (sysbench 1.0) or DISABLED|PREFERRED|REQUIRED|VERIFY_CA|VERIFY_IDENTITY; on = REQUIRED, with sysbench 1.0's ./cacert.pem, ./client-cert.pem, ./client-key.pem where no --mysql-ssl-* file is given"},
    {"mysql-ssl-ca", OPT_STR, NULL, "CA certificate file that signed the server's (implies --mysql-ssl=REQUIRED)"},
    {"mysql-ssl-cert", OPT_STR, NULL, "client certificate file, with --mysql-ssl-key (implies --mysql-ssl=REQUIRED)"},
    {"mysql-ssl-key", OPT_STR, NULL, "client private key file, with --mysql-ssl-cert"},
    {"mysql-ssl-cipher", OPT_STR, NULL, "TLS cipher list allowed (OpenSSL names)"},
    {"mysql-compression", OPT_BOOL, "off", "compressed client/server protocol (zlib)"},
    {"mysql-dry-run", OPT_BOOL, "off", "take every MySQL call as done at once, connecting to nothing, to measure the client alone (built-in mixes only)"},
    {"mysql-debug", OPT_REFUSED, NULL, "tracing Connector/C needs a debug build of the library; --db-debug shows the statements"},
};
/* clang-format on */

const struct optdef *db_mysql_options(size_t *n)
{
    *n = sizeof db_mysql_optdefs / sizeof db_mysql_optdefs[0];
    return db_mysql_optdefs;
}

int db_mysql_ssl_mode(const char *v, enum db_ssl *mode)
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
    if (opts_isset(o, "mysql-ssl") && db_mysql_ssl_mode(v, &t->ssl) < 0) {
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

int db_mysql_target_opts(struct db_target *t, const struct opts *o, char *err, size_t errlen)
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
