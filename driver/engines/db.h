/*
 * db.h - the one face of the database engines (think sysbench's db_driver.h).
 *
 * The core talks to a server only through struct db_ops. Statements run
 * asynchronously: start() sends, cont() is called whenever the connection's
 * socket is ready and returns DB_DONE once the whole reply has been read. A
 * worker can then multiplex many connections in one event loop, or run one
 * connection blocking with db_run(). Each backend classifies its own errors
 * (retry / reconnect / fatal); the worker decides what to do with them.
 * The built-in mixes read no rows (start() drops them as they come); the
 * row path (start_rows()) keeps a reply for callers that read it, the Lua
 * scripts' result sets. Backends never print.
 */
#ifndef DBSCALE_DB_H
#define DBSCALE_DB_H

#include <stddef.h>

enum db_status {
    DB_FAILED = -1,   /* error: see struct db_error */
    DB_DONE = 0,      /* statement finished, its reply fully read */
    DB_WAIT_READ = 1, /* call cont() when fd is readable */
    DB_WAIT_WRITE = 2 /* call cont() when fd is writable */
};

enum db_errclass {
    DB_ERR_NONE = 0,
    DB_ERR_RETRY,     /* the engine's retry list, sysbench's: deadlocks, serialization
                         failures, lock wait timeouts (mysql), unique violations (pgsql):
                         the transaction is rolled back and restarted */
    DB_ERR_RECONNECT, /* the connection is gone: reconnect with backoff */
    DB_ERR_FATAL,     /* anything else: the run stops with the server's message */
};

/* What a statement clears before it starts is in the first cache line
 * (lua/lapi_sql.c's async_of): cls, rolled_back, code[0] and msg[0]. */
struct db_error {
    enum db_errclass cls;
    int rolled_back; /* the engine sent a ROLLBACK after it (a script counts it as "other") */
    char code[16];   /* SQLSTATE (pgsql) or error number (mysql), as text */
    char msg[512];   /* the server's or library's message; never holds a password */
};

/* Fill e: cls, code and msg (NULL: ""), the message's trailing newlines and
 * blanks cut (libpq ends its messages with one; reports add their own). */
void db_error_set(struct db_error *e, enum db_errclass cls, const char *code, const char *msg);

/* mysql --mysql-ssl: sysbench 1.0.20's on/off and later sysbench's modes */
enum db_ssl {
    DB_SSL_DEFAULT = 0, /* what the library and option files say */
    DB_SSL_DISABLED,
    DB_SSL_PREFERRED,
    DB_SSL_REQUIRED,        /* also "on" */
    DB_SSL_VERIFY_CA,       /* the server's certificate is checked (Connector/C */
    DB_SSL_VERIFY_IDENTITY, /* has one check for both: VERIFY_SERVER_CERT) */
};

/* Where and how to connect. NULL/0 fields are left to the engine's own
 * conventions (PGHOST & co., a service file, ~/.pgpass; MariaDB option
 * files, MYSQL_TCP_PORT & co.), and only what those leave open takes the
 * fallback_* values (sysbench's defaults). */
struct db_target {
    const char *host; /* name, address, or (pgsql) a socket directory starting with '/' */
    int port;
    const char *socket; /* mysql: unix socket path */
    const char *user;
    const char *password; /* kept only in memory */
    const char *db;
    const char *conninfo;      /* pgsql: a libpq conninfo string or URI; wins over the above */
    const char *defaults_file; /* mysql: an option file read with MYSQL_READ_DEFAULT_FILE */
    int ps;                    /* 1 = server-side prepared statements, 0 = plain text */
    int connect_timeout_s;     /* 0 = the engine's default (10 s); libpq takes at least 2 */
    /* what the server shows for the connection: pgsql application_name
     * (NULL = "dbscale"), mysql connection attribute program_name (NULL =
     * none); dbscale-mpi names each rank's connections with it */
    const char *app_name;
    /* used only where nothing else names the setting (see above); NULL/0 =
     * the library's own default */
    const char *fallback_host;
    int fallback_port;
    const char *fallback_user;
    const char *fallback_db;
    /* mysql: TLS (sysbench's --mysql-ssl*) and protocol compression */
    enum db_ssl ssl;
    const char *ssl_ca, *ssl_cert, *ssl_key, *ssl_cipher;
    int compression;
};

enum db_ptype { DB_PINT, DB_PSTR };

struct db_param {
    enum db_ptype type;
    long long i;   /* DB_PINT */
    const char *s; /* DB_PSTR, not NUL-terminated necessarily */
    int len;
};

struct db_conn; /* each backend's own */
struct optdef;
struct opts;

/* A reply the row path kept. Its rows are either copied out of the client
 * library (cell[r * nfields + f], NULL for SQL NULL, len the lengths) or
 * left in it (h, read through rows: libpq's PGresult, a MariaDB statement's
 * stored result), so a reply nobody fetches copies nothing. */
struct db_rows {
    /* NULL for SQL NULL, else the value and *len its length */
    const char *(*value)(void *h, long row, int f, size_t *len);
    void (*free)(void *h);
};
struct db_result {
    long nrows, affected; /* affected: a command's count (nfields == 0) */
    int nfields;
    char **cell;
    size_t *len;
    void *h;
    const struct db_rows *rows;
};
void db_result_free(struct db_result *r);
/* Cell (row, f) of r: NULL for SQL NULL, else the value, *len its length. */
const char *db_result_value(const struct db_result *r, long row, int f, size_t *len);

struct db_ops {
    const char *name; /* "pgsql", "mysql" */
    /* Blocking connect; NULL with err filled (says which host:port and why). */
    struct db_conn *(*connect)(const struct db_target *t, struct db_error *err);
    void (*close)(struct db_conn *c);
    /* The socket to wait on; changes after a reconnect. */
    int (*fd)(struct db_conn *c);
    /* Register statement id (0, 1, 2 ...: the backend grows its table to the
     * highest id it is given, so any workload fits). sql uses '?' placeholders
     * (the backend rewrites them for its engine). With t->ps the statement is
     * prepared on the server now; otherwise start() sends it as text with the
     * parameters quoted in. Blocking. */
    int (*prepare)(struct db_conn *c, int id, const char *sql, int nparams, struct db_error *err);
    /* Begin a statement: a registered one (id >= 0, params p[0..np)) or plain
     * text (id < 0, sql). Never blocks. If the whole reply was already there
     * it returns DB_DONE, as cont() does: the caller must then go on without
     * waiting (and without recursing: an engine may do this every time).
     * Replies are read and discarded; nothing of them is handed back. */
    enum db_status (*start)(struct db_conn *c, int id, const char *sql, const struct db_param *p,
                            int np, struct db_error *err);
    /* Make progress after the socket became ready. Never blocks. */
    enum db_status (*cont)(struct db_conn *c, struct db_error *err);
    /* Bulk load of one table: COPY (pgsql) or multi-row INSERT (mysql).
     * Values are text; NULL for SQL NULL is not needed by sbtest. Blocking. */
    int (*bulk_begin)(struct db_conn *c, const char *table, const char *cols, struct db_error *err);
    int (*bulk_row)(struct db_conn *c, const char *const *vals, int nvals, struct db_error *err);
    int (*bulk_end)(struct db_conn *c, struct db_error *err);
    /* Blocking query; returns a malloc'd copy of row 0's last column (the
     * only one of a one-column query; the value of SHOW VARIABLES LIKE), ""
     * for no rows, NULL with err on error. For admin queries, not the hot
     * path. */
    char *(*query_value)(struct db_conn *c, const char *sql, struct db_error *err);
    /* The server's version string, e.g. "15.20" or "10.11.6-MariaDB". */
    const char *(*server_version)(struct db_conn *c);

    /* The row path, for callers that read replies (NULL in an engine that
     * has none: the dry run). As start(), but the reply is kept: once
     * DB_DONE comes (from here or a later cont()) *res holds it; res must
     * live until then. vals are text of any length, NULL for SQL NULL.
     * A statement prepared without parameters goes as text. An error that
     * leaves the transaction aborted (pgsql) is followed by a ROLLBACK
     * before DB_FAILED, and err->rolled_back says so. */
    enum db_status (*start_rows)(struct db_conn *c, int id, const char *sql,
                                 const char *const *vals, int np, struct db_result *res,
                                 struct db_error *err);
    /* Forget statement id; the server's copy goes when the id is prepared
     * again or the session ends (a round trip per close would block). Any
     * result still reading the statement's rows is freed first. */
    void (*unprepare)(struct db_conn *c, int id);

    /* The engine's own options, as sysbench's drivers declare theirs: its
     * connection settings, each named "<name>-..." (core/options.h). */
    const struct optdef *(*options)(size_t *n);
    /* Fill t's fields only this engine has from them (pgsql: the conninfo;
     * mysql: option file, TLS, compression); 0, or -1 with err naming the
     * option. Host, port, user, password and db are every engine's
     * (client/oltp_conn.c). */
    int (*target_opts)(struct db_target *t, const struct opts *o, char *err, size_t errlen);
    /* The option whose comma list names unix sockets, a target each
     * ("mysql-socket"); NULL: the engine takes sockets as hosts. */
    const char *socket_opt;
    /* The variable the library takes the port from ("PGPORT"). */
    const char *port_env;

    /* What the engine is, as sysbench's drv_caps_t: the core asks these and
     * never compares an engine's name. */
    /* One value: the server's connection limit. SHOW, not SELECT, so the
     * check does not add to the server's statement counters. */
    const char *max_connections_sql;
    /* NULL, or one value: slots of that limit ordinary users cannot take. */
    const char *reserved_connections_sql;
    /* Server settings recorded beside results: {name, one-value query}. */
    const char *const (*settings)[2];
    int nsettings;
    /* sbtest DDL: the schemas/NAME.sql file, the id column with --auto-inc,
     * the id index clause with --secondary. */
    const char *schema;
    const char *auto_id_def;
    const char *secondary_key;
    /* 1: an INSERT fills an auto id by leaving the column out (SERIAL);
     * 0: by passing 0 for it (AUTO_INCREMENT, sysbench's oltp_insert). */
    int auto_id_omitted;
    /* --client-sched=auto: the fewest connections of a loop that runs as
     * SCHED_BATCH; a smaller one keeps the normal policy. 3 for MariaDB,
     * whose server threads sleep after every statement under a batch loop
     * of 2; 2 for PostgreSQL (why: sched_policy.h, README: Speed). */
    int batch_min_conns;
    /* 1: BEGIN and COMMIT go as prepared statements, as sysbench's scripts
     * prepare them (MariaDB: COM_STMT_EXECUTE, no parse per transaction);
     * 0: as text (PostgreSQL: a simple query is one message, a prepared one
     * three). */
    int prepared_trx;
};

extern const struct db_ops db_pgsql_ops;
extern const struct db_ops db_mysql_ops;

/* Copy from's TLS and compression settings into t (a target that says only
 * where to connect, such as a throwaway server's). */
void db_target_keep_how(struct db_target *t, const struct db_target *from);

/* --mysql-dry-run: db_mysql_ops' capabilities with every call taken as done
 * at once and nothing connected (db_dry.c). */
const struct db_ops *db_dry_mysql_ops(void);

/* The engines, NULL-terminated: what --help lists options of (db_engines.c). */
extern const struct db_ops *const db_engines[];

/* "pgsql" or "mysql" (also "postgresql", "mariadb"); NULL if unknown. */
const struct db_ops *db_find(const char *name);

/* Run a statement to completion, waiting with poll(). Blocking convenience
 * for prepare/cleanup/admin work and tests. */
enum db_status db_run(const struct db_ops *ops, struct db_conn *c, int id, const char *sql,
                      const struct db_param *p, int np, struct db_error *err);
/* The row path's db_run: the reply kept in res. */
enum db_status db_run_rows(const struct db_ops *ops, struct db_conn *c, int id, const char *sql,
                           const char *const *vals, int np, struct db_result *res,
                           struct db_error *err);
/* Plain SQL text, result discarded. 0 or -1. */
int db_exec(const struct db_ops *ops, struct db_conn *c, const char *sql, struct db_error *err);

#endif
