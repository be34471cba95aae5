/*
 * db_mysql_conn.c - how a db_target becomes a MariaDB connection: the
 * library set up once, then one MYSQL handle with the target's conventions.
 *
 * The one idea: Connector/C already layers its settings the way the mariadb
 * client does (what mysql_real_connect is given, then the option files, then
 * MYSQL_TCP_PORT, MYSQL_UNIX_PORT and MYSQL_PWD), because it reads the
 * option files inside mysql_real_connect, over whatever mysql_options set
 * before. So the target's fallbacks (sysbench's sbtest user and database)
 * and MYSQL_HOST, which the library itself ignores, go in first as options
 * and the option files may overwrite them; only what was given on the
 * command line is passed to mysql_real_connect and beats both. The backend
 * and the Lua scripts' connection both open here, so they agree on where a
 * target leads.
 *
 * It must never print and never put the password in a message.
 */
#include "engines/db.h"
#include "engines/db_mysql_conn.h"
#include "core/util.h"

#include <mysql.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t dbm_once = PTHREAD_ONCE_INIT;
static int dbm_lib_failed;
static _Thread_local int dbm_thread_ready;

static void dbm_lib_init(void)
{
    dbm_lib_failed = mysql_library_init(0, NULL, NULL) != 0;
}

/* TLS as --mysql-ssl asks. DB_SSL_DEFAULT leaves it to the option files
 * (ssl-ca= & co. in [client] work as in the mariadb client). */
static void dbm_set_tls(MYSQL *m, const struct db_target *t)
{
    if (t->ssl == DB_SSL_DEFAULT || t->ssl == DB_SSL_DISABLED)
        return;
    mysql_ssl_set(m, t->ssl_key, t->ssl_cert, t->ssl_ca, NULL, t->ssl_cipher);
    /* PREFERRED: TLS when the server offers it; the rest refuse a
     * connection in clear text */
    my_bool enforce = t->ssl != DB_SSL_PREFERRED;
    my_bool verify = t->ssl == DB_SSL_VERIFY_CA || t->ssl == DB_SSL_VERIFY_IDENTITY;
    mysql_options(m, MYSQL_OPT_SSL_ENFORCE, &enforce);
    mysql_options(m, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &verify);
}

/* "host:port", "socket PATH" or what the library defaulted to, for the
 * message of a failed connect. */
static void dbm_where(MYSQL *m, const struct db_target *t, char *buf, size_t len)
{
    const char *host = NULL, *sock = NULL;
    unsigned port = 0;
    mariadb_get_infov(m, MARIADB_CONNECTION_HOST, &host);
    mariadb_get_infov(m, MARIADB_CONNECTION_PORT, &port);
    mariadb_get_infov(m, MARIADB_CONNECTION_UNIX_SOCKET, &sock);
    if (!host)
        host = t->host;
    if (!sock)
        sock = t->socket;
    if (sock && (!host || !strcmp(host, "localhost")))
        snprintf(buf, len, "socket %s", sock);
    else if (host && port)
        snprintf(buf, len, "%s:%u", host, port);
    else if (host)
        snprintf(buf, len, "%s (default port)", host);
    else
        snprintf(buf, len, "the default host/socket (option files%s%s)",
                 t->defaults_file ? ", " : "", t->defaults_file ? t->defaults_file : "");
}

MYSQL *db_mysql_open(const struct db_target *t, int nonblock, unsigned *code, char *msg,
                     size_t msglen)
{
    *code = 0;
    pthread_once(&dbm_once, dbm_lib_init);
    if (dbm_lib_failed) {
        snprintf(msg, msglen, "mysql: mysql_library_init failed");
        return NULL;
    }
    if (!dbm_thread_ready) {
        mysql_thread_init();
        dbm_thread_ready = 1;
    }
    MYSQL *m = mysql_init(NULL);
    if (!m) {
        snprintf(msg, msglen, "mysql: mysql_init failed (out of memory)");
        return NULL;
    }
    my_bool off = 0;
    unsigned timeout = t->connect_timeout_s > 0 ? (unsigned)t->connect_timeout_s : 10;
    mysql_options(m, MYSQL_OPT_RECONNECT, &off);
    mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    /* below the option files: they are read later, inside mysql_real_connect
     * (fallback_host is not needed: "localhost" is the library's default) */
    const char *host = getenv("MYSQL_HOST");
    if (host && *host)
        mysql_optionsv(m, MARIADB_OPT_HOST, host);
    if (t->fallback_user)
        mysql_optionsv(m, MARIADB_OPT_USER, t->fallback_user);
    if (t->fallback_db)
        mysql_optionsv(m, MARIADB_OPT_SCHEMA, t->fallback_db);
    /* fallback_port is not set: it would hide MYSQL_TCP_PORT, and the
     * library's own default is sysbench's 3306 anyway */
    /* Option files: --mysql-defaults-file instead of the default ones (as
     * mariadb --defaults-file); their [client] and [client-server] groups */
    if (t->defaults_file)
        mysql_options(m, MYSQL_READ_DEFAULT_FILE, t->defaults_file);
    mysql_options(m, MYSQL_READ_DEFAULT_GROUP, "client");
    dbm_set_tls(m, t);
    if (t->compression)
        mysql_options(m, MYSQL_OPT_COMPRESS, NULL);
    if (nonblock)
        mysql_options(m, MYSQL_OPT_NONBLOCK, 0);
    if (t->app_name)
        mysql_optionsv(m, MYSQL_OPT_CONNECT_ATTR_ADD, "program_name", t->app_name);

    if (!mysql_real_connect(m, t->host, t->user, t->password, t->db, (unsigned)t->port, t->socket,
                            0)) {
        char where[300];
        dbm_where(m, t, where, sizeof where);
        *code = mysql_errno(m);
        snprintf(msg, msglen, "can't connect to MySQL at %s: %s", where, mysql_error(m));
        mysql_close(m);
        return NULL;
    }
    /* Connector/C goes on in clear text when the server offers no TLS,
     * MYSQL_OPT_SSL_ENFORCE or not (tried): REQUIRED and stricter must not */
    if (t->ssl >= DB_SSL_REQUIRED && !mysql_get_ssl_cipher(m)) {
        char where[300];
        dbm_where(m, t, where, sizeof where);
        snprintf(msg, msglen,
                 "can't connect to MySQL at %s: the server offers no TLS, which --mysql-ssl "
                 "requires",
                 where);
        mysql_close(m);
        return NULL;
    }
    return m;
}

struct db_conn *dbm_connect(const struct db_target *t, struct db_error *err)
{
    unsigned e;
    char msg[sizeof err->msg];
    MYSQL *m = db_mysql_open(t, 1, &e, msg, sizeof msg);
    if (!m) {
        /* Server not there (yet) or going away: retry with backoff. Access
         * denied (1045), unknown database (1049), unknown host, too many
         * connections and the rest: fatal. */
        enum db_errclass cls = e ? dbm_class(e) : DB_ERR_FATAL;
        if (cls == DB_ERR_RETRY)
            cls = DB_ERR_FATAL;
        dbm_seterr(err, cls, e, msg);
        return NULL;
    }
    struct db_conn *c = xcalloc(1, sizeof *c);
    c->m = m;
    c->ps = t->ps;
    return c;
}

int dbm_fd(struct db_conn *c)
{
    return (int)mysql_get_socket(c->m);
}
