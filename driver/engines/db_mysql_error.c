/*
 * db_mysql_error.c - what a MariaDB error is: the one classifier of the
 * engine's error numbers (retry, reconnect, fatal), for the backend, the
 * Lua scripts' SQL and the why collectors alike, and the one way the
 * backend's files fill in a struct db_error from a number and a message.
 *
 * The one idea: the engine decides what an error is, the caller what to do
 * with it, so every MariaDB error of dbscale is classified here and nowhere
 * else. Every file of the backend calls down into this one; it calls none
 * of them. It must never print.
 */
#include "engines/db.h"
#include "engines/db_mysql_conn.h"

#include <mysql.h>
#include <mysqld_error.h>
#include <errmsg.h>

#include <stdio.h>

enum db_errclass dbm_class(unsigned e)
{
    switch (e) {
    case ER_LOCK_DEADLOCK:     /* 1213 */
    case ER_LOCK_WAIT_TIMEOUT: /* 1205 */
    case ER_CHECKREAD:         /* 1020 record changed since last read */
        /* sysbench's --mysql-ignore-errors default; a duplicate key (1062)
         * is retried only when --db-ignore-errors names it */
        return DB_ERR_RETRY;
    case CR_CONNECTION_ERROR:  /* 2002 */
    case CR_CONN_HOST_ERROR:   /* 2003 */
    case CR_SERVER_GONE_ERROR: /* 2006 */
    case CR_SERVER_LOST:       /* 2013 */
    case 2055:                 /* CR_SERVER_LOST_EXTENDED */
    case 1927:                 /* ER_CONNECTION_KILLED */
    case ER_SERVER_SHUTDOWN:   /* 1053 */
    case 4031:                 /* ER_CLIENT_INTERACTION_TIMEOUT */
    case ER_NET_READ_ERROR:    /* 1158 */
    case ER_NET_READ_INTERRUPTED:
    case ER_NET_ERROR_ON_WRITE:
    case ER_NET_WRITE_INTERRUPTED:
        return DB_ERR_RECONNECT;
    default:
        return DB_ERR_FATAL;
    }
}

void dbm_seterr(struct db_error *err, enum db_errclass cls, unsigned code, const char *msg)
{
    char num[16];
    snprintf(num, sizeof num, "%u", code);
    db_error_set(err, cls, num, msg);
}

void dbm_error(struct db_error *err, unsigned code, const char *msg)
{
    dbm_seterr(err, dbm_class(code), code, msg);
}

void dbm_conn_err(struct db_conn *c, struct db_error *err)
{
    dbm_error(err, mysql_errno(c->m), mysql_error(c->m));
}

/* Misuse of the interface by the caller, not a server error. */
void dbm_usage(struct db_error *err, const char *msg)
{
    dbm_seterr(err, DB_ERR_FATAL, 0, msg);
}
