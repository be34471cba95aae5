/*
 * db_mysql_buf.c - the MariaDB backend's growing text buffers: the text
 * statement being sent, the bulk load's multi-row INSERTs, a prepared
 * statement's string parameters.
 *
 * The one idea: a buffer only grows (doubling) and is always
 * NUL-terminated, so the same bytes can go to Connector/C as a length and
 * text and be reused by the next statement without an allocation. It calls
 * no other file of the backend.
 */
#include "engines/db_mysql_conn.h"
#include "core/util.h"

#include <mysql.h>

#include <string.h>

void dbm_reserve(struct dbm_buf *b, size_t more)
{
    if (b->len + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more + 1)
        cap *= 2;
    b->s = xrealloc(b->s, cap);
    b->cap = cap;
}

void dbm_add(struct dbm_buf *b, const char *s, size_t n)
{
    dbm_reserve(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* 'escaped text' for the connection's character set. */
void dbm_add_quoted(struct db_conn *c, struct dbm_buf *b, const char *s, size_t n)
{
    dbm_reserve(b, 2 * n + 2);
    b->s[b->len++] = '\'';
    b->len += mysql_real_escape_string(c->m, b->s + b->len, s, (unsigned long)n);
    b->s[b->len++] = '\'';
    b->s[b->len] = '\0';
}
