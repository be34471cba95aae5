/*
 * why_my.c - where MariaDB's connections spent a window: performance_schema's
 * wait summaries of the workload's connection threads (events and their
 * timed waits), InnoDB's row-lock waits and time (SHOW GLOBAL STATUS), its
 * lock and wait counters (INNODB_METRICS) and, where the server still prints
 * it, the sync array's reservation count (MariaDB from 10.6 has none: its
 * latches are performance_schema's wait/synch/.../innodb/ instruments).
 *
 * The one idea: every source is a cumulative counter, read on a side
 * connection at the window's two edges and subtracted; nothing runs in
 * between, so the collection costs two round trips a level. Queries use
 * Connector/C's non-blocking calls with a deadline, so a server that stops
 * answering cannot hold the timing thread. What the user lacks (a grant,
 * performance_schema off, instruments off) is said once with its fix.
 */
#include <mysql.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "engines/db_mysql_conn.h"
#include "why/why_internal.h"

#define QUERY_MS 3000

struct mysnap {
    struct why_counts n, t; /* p_s: events counted, seconds waited */
    struct why_counts inno; /* InnoDB's counters */
};

struct myw {
    const struct why_cfg *cfg;
    MYSQL *m;
    int ps, metrics, status, broken, conns;
    char user[200];
    struct mysnap s[2];
};

/* One non-blocking call stepped to its end within the deadline; 0, or -1 when too slow. */
static int step(MYSQL *m, int st, uint64_t end, int (*cont)(MYSQL *, int, void *), void *out)
{
    while (st) {
        uint64_t now = now_ns();
        if (now >= end)
            return -1;
        struct pollfd pf = {
            mysql_get_socket(m),
            (short)((st & MYSQL_WAIT_READ ? POLLIN : 0) | (st & MYSQL_WAIT_WRITE ? POLLOUT : 0)),
            0};
        int pr = poll(&pf, 1, (int)((end - now) / 1000000ull) + 1);
        int ready = pr > 0 ? ((pf.revents & (POLLIN | POLLHUP | POLLERR)) ? MYSQL_WAIT_READ : 0) |
                                 ((pf.revents & POLLOUT) ? MYSQL_WAIT_WRITE : 0)
                           : MYSQL_WAIT_TIMEOUT;
        st = cont(m, ready, out);
    }
    return 0;
}

static int query_cont(MYSQL *m, int ready, void *out)
{
    return mysql_real_query_cont(out, m, ready);
}

static int store_cont(MYSQL *m, int ready, void *out)
{
    return mysql_store_result_cont(out, m, ready);
}

/* The rows of sql, or NULL with *code (0: too slow or gone). */
static MYSQL_RES *query(struct myw *w, const char *sql, unsigned *code)
{
    *code = 0;
    if (!w->m || w->broken)
        return NULL;
    uint64_t end = now_ns() + QUERY_MS * 1000000ull;
    int err = 0;
    MYSQL_RES *res = NULL;
    if (step(w->m, mysql_real_query_start(&err, w->m, sql, strlen(sql)), end, query_cont, &err) <
            0 ||
        (!err && step(w->m, mysql_store_result_start(&res, w->m), end, store_cont, &res) < 0)) {
        w->broken = 1; /* the connection is mid-statement: unusable */
        return NULL;
    }
    if (err || !res)
        *code = mysql_errno(w->m) ? mysql_errno(w->m) : 1;
    if (*code == 2006 || *code == 2013) /* gone */
        w->broken = 1;
    return res;
}

static const char *event_class(const char *ev)
{
    if (!strncmp(ev, "wait/synch/", 11) || !strncmp(ev, "wait/lock/", 10) ||
        !strcmp(ev, "innodb:row_lock_waits") || !strncmp(ev, "innodb:lock_", 12) ||
        !strcmp(ev, "innodb:os_wait_array_reservations"))
        return "lock";
    if (!strncmp(ev, "wait/io/file/", 13) || !strcmp(ev, "innodb:buffer_pool_wait_free") ||
        !strcmp(ev, "innodb:log_waits"))
        return "io";
    if (!strcmp(ev, "idle") || !strncmp(ev, "wait/io/socket/", 15))
        return "client";
    if (!strncmp(ev, "wait/io/table/", 14))
        return "table"; /* time inside the storage engine's row calls, CPU included */
    return "other";
}

static int snapshot(struct myw *w, struct mysnap *s)
{
    unsigned code;
    why_counts_free(&s->n);
    why_counts_free(&s->t);
    why_counts_free(&s->inno);
    MYSQL_RES *r;
    MYSQL_ROW row;
    if (w->ps) {
        char sql[1024];
        snprintf(sql, sizeof sql,
                 "SELECT e.EVENT_NAME, SUM(e.COUNT_STAR), SUM(e.SUM_TIMER_WAIT) FROM "
                 "performance_schema.events_waits_summary_by_thread_by_event_name e JOIN "
                 "performance_schema.threads t ON t.THREAD_ID = e.THREAD_ID WHERE t.TYPE = "
                 "'FOREGROUND' AND t.PROCESSLIST_ID <> CONNECTION_ID() AND t.PROCESSLIST_USER = "
                 "SUBSTRING_INDEX(CURRENT_USER(), '@', 1) AND e.COUNT_STAR > 0 GROUP BY "
                 "e.EVENT_NAME");
        if (!(r = query(w, sql, &code)))
            return -1;
        while ((row = mysql_fetch_row(r))) {
            *why_counts_at(&s->n, row[0]) = row[1] ? atof(row[1]) : 0;
            *why_counts_at(&s->t, row[0]) = row[2] ? atof(row[2]) / 1e12 : 0; /* ps */
        }
        mysql_free_result(r);
        /* the statements' time: the rest of the connections' is between statements */
        snprintf(sql, sizeof sql,
                 "SELECT SUM(e.SUM_TIMER_WAIT) FROM "
                 "performance_schema.events_statements_summary_by_thread_by_event_name e JOIN "
                 "performance_schema.threads t ON t.THREAD_ID = e.THREAD_ID WHERE t.TYPE = "
                 "'FOREGROUND' AND t.PROCESSLIST_ID <> CONNECTION_ID() AND t.PROCESSLIST_USER = "
                 "SUBSTRING_INDEX(CURRENT_USER(), '@', 1)");
        if (!(r = query(w, sql, &code)))
            return -1;
        row = mysql_fetch_row(r);
        *why_counts_at(&s->t, "(statements)") = row && row[0] ? atof(row[0]) / 1e12 : 0;
        mysql_free_result(r);
    }
    if (w->status && (r = query(w,
                                "SHOW GLOBAL STATUS WHERE Variable_name IN "
                                "('Innodb_row_lock_waits', 'Innodb_row_lock_time')",
                                &code))) {
        while ((row = mysql_fetch_row(r)))
            *why_counts_at(&s->inno, row[0]) = row[1] ? atof(row[1]) : 0;
        mysql_free_result(r);
    } else if (w->broken)
        return -1;
    if (w->metrics &&
        (r = query(w,
                   "SELECT NAME, COUNT FROM information_schema.INNODB_METRICS WHERE ENABLED = 1 "
                   "AND NAME IN ('lock_deadlocks', 'lock_timeouts', 'lock_rec_lock_waits', "
                   "'lock_table_lock_waits', 'buffer_pool_wait_free', 'log_waits')",
                   &code))) {
        while ((row = mysql_fetch_row(r)))
            *why_counts_at(&s->inno, row[0]) = row[1] ? atof(row[1]) : 0;
        mysql_free_result(r);
        if ((r = query(w, "SHOW ENGINE INNODB STATUS", &code))) {
            row = mysql_fetch_row(r);
            const char *st = row && mysql_num_fields(r) >= 3 && row[2] ? row[2] : "";
            const char *p = strstr(st, "OS WAIT ARRAY INFO: reservation count");
            if (p)
                *why_counts_at(&s->inno, "os_wait_array_reservations") = atof(p + 37);
            mysql_free_result(r);
        }
    }
    return w->broken ? -1 : 0;
}

/* One value of a one-row query, "" when none. */
static void value(struct myw *w, const char *sql, char *out, size_t n, unsigned *code)
{
    out[0] = '\0';
    MYSQL_RES *r = query(w, sql, code);
    MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
    if (row && row[0])
        snprintf(out, n, "%s", row[0]);
    if (r)
        mysql_free_result(r);
}

/* What may be read, each lack said once with its fix. */
static void check(struct myw *w)
{
    unsigned code;
    char v[256];
    value(w, "SELECT CURRENT_USER()", w->user, sizeof w->user, &code);
    char *at = strrchr(w->user, '@'); /* "sbtest@localhost" -> 'sbtest'@'localhost' */
    char grantee[260];
    if (at) {
        *at = '\0';
        snprintf(grantee, sizeof grantee, "'%s'@'%s'", w->user, at + 1);
    } else
        snprintf(grantee, sizeof grantee, "'%s'", w->user);
    w->status = 1;
    /* auto reads performance_schema where the server already pays for it
     * (it costs MariaDB 8-10% TPS at 64 connections here: a managed
     * server has it only with --waits=performance_schema); only a user who
     * asked for it hears that it is off */
    const char *want = w->cfg->waits ? w->cfg->waits : "auto";
    int asked = !strcmp(want, "performance_schema");
    value(w, "SELECT @@performance_schema", v, sizeof v, &code);
    if (strcmp(v, "1") != 0) {
        if (asked)
            why_note(w->cfg, "MariaDB waits: performance_schema is off (start the server with "
                             "performance_schema=ON; a managed server has it with "
                             "--waits=performance_schema): no wait summaries");
    } else {
        value(w, "SELECT COUNT(*) FROM performance_schema.threads", v, sizeof v, &code);
        w->ps = code == 0;
        if (!w->ps)
            why_note(w->cfg,
                     "MariaDB waits: %s may not read performance_schema: GRANT SELECT ON "
                     "performance_schema.* TO %s; no wait summaries",
                     grantee, grantee);
        else {
            value(w,
                  "SELECT COUNT(*) FROM performance_schema.setup_instruments WHERE NAME LIKE "
                  "'wait/synch/%' AND ENABLED = 'YES' AND TIMED = 'YES'",
                  v, sizeof v, &code);
            if (atoi(v) == 0 && asked)
                why_note(w->cfg, "MariaDB waits: the wait/synch instruments are off (start "
                                 "with performance-schema-instrument='wait/synch/%%=ON'; a "
                                 "managed server has them with --waits=performance_schema): "
                                 "mutex and latch waits are not timed");
        }
    }
    value(w, "SELECT COUNT(*) FROM information_schema.INNODB_METRICS", v, sizeof v, &code);
    w->metrics = code == 0 && atoi(v) > 0;
    if (!w->metrics)
        why_note(w->cfg,
                 "MariaDB waits: %s lacks the PROCESS privilege: GRANT PROCESS ON *.* TO %s; no "
                 "InnoDB lock counters (row-lock waits still come from SHOW GLOBAL STATUS)",
                 grantee, grantee);
}

static void *my_open(const struct why_cfg *cfg)
{
    struct myw *w = xcalloc(1, sizeof *w);
    w->cfg = cfg;
    struct db_target t = *cfg->target;
    t.app_name = "dbscale-why";
    unsigned code;
    char msg[512];
    w->m = db_mysql_open(&t, 1, &code, msg, sizeof msg);
    if (!w->m) {
        why_note(cfg, "MariaDB waits: cannot open a side connection (%s); no waits", msg);
        free(w);
        return NULL;
    }
    check(w);
    return w;
}

static void my_level(void *p, int conns)
{
    ((struct myw *)p)->conns = conns;
}

static void my_edge(void *p, int begin)
{
    struct myw *w = p;
    if (!w->broken && snapshot(w, &w->s[begin ? 0 : 1]) < 0)
        w->broken = 1;
}

static void add_rows(struct myw *w, double window_s, struct why_result *r)
{
    struct mysnap *a = &w->s[0], *b = &w->s[1];
    double conn_s = window_s * (w->conns > 0 ? w->conns : 1);
    for (int i = 0; i < b->n.n; i++) {
        double n = b->n.v[i] - *why_counts_at(&a->n, b->n.name[i]);
        double t = *why_counts_at(&b->t, b->n.name[i]) - *why_counts_at(&a->t, b->n.name[i]);
        /* an idle wait is timed when it ends, so one begun before the window
         * (a connection the previous level left idle) would bring all of
         * its time in: between statements is what the statements left */
        if (n <= 0 || !strcmp(b->n.name[i], "idle"))
            continue;
        struct why_wait *x =
            why_add_wait(r, "performance_schema", b->n.name[i], event_class(b->n.name[i]));
        x->count = n;
        x->wait_s = t > 0 ? t : 0;
        x->share = x->wait_s / conn_s;
    }
    double stmt = *why_counts_at(&b->t, "(statements)") - *why_counts_at(&a->t, "(statements)");
    if (w->ps && stmt > 0) {
        struct why_wait *x =
            why_add_wait(r, "performance_schema", "idle (between statements)", "client");
        x->count = *why_counts_at(&b->n, "idle") - *why_counts_at(&a->n, "idle");
        x->wait_s = conn_s > stmt ? conn_s - stmt : 0;
        x->share = x->wait_s / conn_s;
    }
    double waits = *why_counts_at(&b->inno, "Innodb_row_lock_waits") -
                   *why_counts_at(&a->inno, "Innodb_row_lock_waits");
    double ms = *why_counts_at(&b->inno, "Innodb_row_lock_time") -
                *why_counts_at(&a->inno, "Innodb_row_lock_time");
    if (w->status) { /* always a row: 0 waits is a finding too */
        struct why_wait *x = why_add_wait(r, "innodb", "innodb:row_lock_waits", "lock");
        x->count = waits > 0 ? waits : 0;
        x->wait_s = ms > 0 ? ms / 1000 : 0;
        x->share = x->wait_s / conn_s;
    }
    for (int i = 0; i < b->inno.n; i++) {
        const char *nm = b->inno.name[i];
        if (!strncmp(nm, "Innodb_row_lock", 15))
            continue;
        double d = b->inno.v[i] - *why_counts_at(&a->inno, nm);
        char ev[96];
        snprintf(ev, sizeof ev, "innodb:%s", nm);
        struct why_wait *x = why_add_wait(r, "innodb", ev, event_class(ev));
        x->count = d > 0 ? d : 0;
    }
}

static void my_end(void *p, double window_s, struct why_result *r)
{
    struct myw *w = p;
    if (w->broken) {
        why_note(w->cfg, "MariaDB waits: the server stopped answering the collector's queries; "
                         "no waits from here on");
        return;
    }
    add_rows(w, window_s, r);
}

static const char *my_method(void *p)
{
    return ((struct myw *)p)->ps ? "performance_schema" : "innodb";
}

static void my_close(void *p)
{
    struct myw *w = p;
    if (w->m)
        mysql_close(w->m);
    for (int i = 0; i < 2; i++) {
        why_counts_free(&w->s[i].n);
        why_counts_free(&w->s[i].t);
        why_counts_free(&w->s[i].inno);
    }
    free(w);
}

const struct why_waits_ops why_my_waits = {
    .engine = "mysql",
    .open = my_open,
    .level = my_level,
    .edge = my_edge,
    .end = my_end,
    .method = my_method,
    .close = my_close,
};
