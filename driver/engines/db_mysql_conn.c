/*
 * db_mysql_conn.c - how the MariaDB backend opens a connection: the library
 * set up once, then one MYSQL handle per db_target with its options.
 *
 * The one idea: every connection convention (option files, timeouts, the
 * connection's name) is applied here and nowhere else, so the backend and
 * anything else that connects to MariaDB agree on where a target leads.
 *
 * It must never print and never put the password in a message.
 */
#include "db.h"
#include "db_mysql_conn.h"
#include "util.h"

#include <mysql.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_once_t dbm_once = PTHREAD_ONCE_INIT;
static int dbm_lib_failed;
static _Thread_local int dbm_thread_ready;

static void dbm_lib_init(void)
{
    dbm_lib_failed = mysql_library_init(0, NULL, NULL) != 0;
}

struct db_conn *dbm_connect(const struct db_target *t, struct db_error *err)
{
    pthread_once(&dbm_once, dbm_lib_init);
    if (dbm_lib_failed) {
        dbm_usage(err, "mysql: mysql_library_init failed");
        return NULL;
    }
    if (!dbm_thread_ready) {
        mysql_thread_init();
        dbm_thread_ready = 1;
    }
    MYSQL *m = mysql_init(NULL);
    if (!m) {
        dbm_usage(err, "mysql: mysql_init failed (out of memory)");
        return NULL;
    }
    my_bool off = 0;
    unsigned timeout = t->connect_timeout_s > 0 ? (unsigned)t->connect_timeout_s : 10;
    mysql_options(m, MYSQL_OPT_RECONNECT, &off);
    mysql_options(m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    /* Option files: the [client] groups of the default files, plus ours. */
    if (t->defaults_file)
        mysql_options(m, MYSQL_READ_DEFAULT_FILE, t->defaults_file);
    mysql_options(m, MYSQL_READ_DEFAULT_GROUP, "client");
    mysql_options(m, MYSQL_OPT_NONBLOCK, 0);
    if (t->app_name)
        mysql_optionsv(m, MYSQL_OPT_CONNECT_ATTR_ADD, "program_name", t->app_name);

    if (!mysql_real_connect(m, t->host, t->user, t->password, t->db, (unsigned)t->port, t->socket,
                            0)) {
        char where[300];
        if (t->socket)
            snprintf(where, sizeof where, "socket %s", t->socket);
        else if (t->host && t->port)
            snprintf(where, sizeof where, "%s:%d", t->host, t->port);
        else if (t->host)
            snprintf(where, sizeof where, "%s (default port)", t->host);
        else
            snprintf(where, sizeof where, "the default host/socket (option files%s%s)",
                     t->defaults_file ? ", " : "", t->defaults_file ? t->defaults_file : "");
        unsigned e = mysql_errno(m);
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "can't connect to MySQL at %s: %s", where, mysql_error(m));
        /* Server not there (yet) or going away: retry with backoff. Access
         * denied (1045), unknown database (1049), unknown host, too many
         * connections and the rest: fatal. */
        enum db_errclass cls = dbm_class(e);
        if (cls == DB_ERR_RETRY)
            cls = DB_ERR_FATAL;
        dbm_seterr(err, cls, e, msg);
        mysql_close(m);
        return NULL;
    }
    struct db_conn *c = xcalloc(1, sizeof *c);
    c->m = m;
    c->ps = t->ps;
    return c;
}
