/*
 * db_mysql_conn.h - the MariaDB backend's connection, shared by its
 * files: db_mysql.c (prepare, the statement state machine, the start of the
 * count and row paths, the engine's db_ops), db_mysql_rows.c (the row
 * path's replies), db_mysql_bulk.c (the blocking paths: bulk load and admin
 * queries), db_mysql_conn.c (connect), and below them all db_mysql_error.c
 * (the classifier) and db_mysql_buf.c (growing buffers).
 * Private to the engine, but for db_mysql_open and dbm_error, which the
 * collectors (why/) use too.
 */
#ifndef DBSCALE_DB_MYSQL_CONN_H
#define DBSCALE_DB_MYSQL_CONN_H

#include <mysql.h>
#include <stddef.h>

#include "engines/db.h"

/* A bulk INSERT statement is flushed once it is this big (capped at half of
 * the server's max_allowed_packet). */
#define DBM_BULK_BYTES (1 << 20)

struct dbm_buf {
    char *s;
    size_t len, cap;
};

/* One registered statement: server-side (st) or text with '?' (sql). */
struct dbm_stmt {
    MYSQL_STMT *st;
    char *sql;
    int nparams;
    MYSQL_BIND *bind;
    unsigned long *lens;
    long long *ints;
    struct dbm_buf *strs; /* string parameters' stable copies */
    int bound;            /* bind[] is registered with the statement */
};

enum dbm_step {
    DBM_IDLE,
    DBM_SEND,   /* mysql_send_query: a text statement going out */
    DBM_AWAIT,  /* sent, no call running: cont() begins DBM_RESULT */
    DBM_RESULT, /* mysql_read_query_result */
    DBM_STORE,  /* mysql_store_result */
    DBM_NEXT,   /* mysql_next_result */
    DBM_EXEC,   /* mysql_stmt_execute */
    DBM_SFREE,  /* mysql_stmt_free_result: reads and drops the rows */
    DBM_SSTORE, /* mysql_stmt_store_result: the row path keeps them */
    DBM_SNEXT,  /* mysql_stmt_next_result */
    DBM_READY,  /* the reply is complete: DB_DONE */
};

struct db_conn {
    MYSQL *m;
    int ps;
    enum dbm_step step;
    int wait;               /* MYSQL_WAIT_* the suspended call waits for */
    MYSQL_STMT *cur;        /* the prepared statement running, if any */
    struct db_result *res;  /* the row path's reply (NULL: the count path is running) */
    struct dbm_buf q;       /* text of the running statement (must outlive the call) */
    struct dbm_buf bulk[2]; /* INSERT being built / in flight */
    int bulk_cur;           /* the one being built */
    int bulk_inflight;      /* the other one is running (wait in c->wait) */
    size_t bulk_head;       /* length of "INSERT INTO t(cols) VALUES " */
    size_t bulk_limit;
    long bulk_rows;
    struct dbm_stmt *stmts; /* [nstmts], grown by prepare to the highest id + 1 */
    int nstmts;
};

/* db_mysql_error.c: dbm_class is the one classifier of the engine and the
 * Lua scripts' SQL; dbm_error fills err with code's class, code and msg */
enum db_errclass dbm_class(unsigned e);
void dbm_seterr(struct db_error *err, enum db_errclass cls, unsigned code, const char *msg);
void dbm_error(struct db_error *err, unsigned code, const char *msg);
void dbm_conn_err(struct db_conn *c, struct db_error *err);
void dbm_usage(struct db_error *err, const char *msg);
/* db_mysql_buf.c: growing buffers */
void dbm_reserve(struct dbm_buf *b, size_t more);
void dbm_add(struct dbm_buf *b, const char *s, size_t n);
void dbm_add_quoted(struct db_conn *c, struct dbm_buf *b, const char *s, size_t n);
/* db_mysql_conn.c: the connection's socket */
int dbm_fd(struct db_conn *c);
/* db_mysql.c: a registered statement freed; the statement state machine
 * from c->step (ready 0 begins the step, else the events it waited for),
 * and the end of a statement; the row path's start */
void dbm_stmt_clear(struct dbm_stmt *s);
enum db_status dbm_drive(struct db_conn *c, int ready, struct db_error *err);
enum db_status dbm_finish(struct db_conn *c);
enum db_status dbm_start_rows(struct db_conn *c, int id, const char *sql, const char *const *vals,
                              int np, struct db_result *res, struct db_error *err);
/* db_mysql_rows.c: a text reply copied into res (r freed); a prepared
 * statement's stored rows left in it, read from res */
void dbm_rows_copy(MYSQL_RES *r, struct db_result *res);
void dbm_rows_keep(MYSQL_STMT *st, struct db_result *res);
/* db_mysql_opts.c: the engine's options; the target fields they fill
 * (option file, TLS, compression), files checked readable; --mysql-ssl's
 * value (sysbench 1.0.20's on/off or later sysbench's modes, any case)
 * as a mode, -1 if it is none of them */
const struct optdef *db_mysql_options(size_t *n);
int db_mysql_target_opts(struct db_target *t, const struct opts *o, char *err, size_t errlen);
int db_mysql_ssl_mode(const char *v, enum db_ssl *mode);
/* db_mysql_conn.c. db_mysql_open: a blocking connect with t's conventions
 * (see db_mysql_conn.c), nonblock = for the _start/_cont API; NULL with
 * *code (the library's error number, 0 = no server error) and msg ("can't
 * connect to MySQL at WHERE: why", never the password). */
MYSQL *db_mysql_open(const struct db_target *t, int nonblock, unsigned *code, char *msg,
                     size_t msglen);
/* db_mysql_ops.connect */
struct db_conn *dbm_connect(const struct db_target *t, struct db_error *err);
/* db_mysql_bulk.c */
int dbm_bulk_begin(struct db_conn *c, const char *table, const char *cols, struct db_error *err);
int dbm_bulk_row(struct db_conn *c, const char *const *vals, int nvals, struct db_error *err);
int dbm_bulk_end(struct db_conn *c, struct db_error *err);
char *dbm_query_value(struct db_conn *c, const char *sql, struct db_error *err);

#endif
