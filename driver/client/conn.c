/*
 * conn.c - one client connection's life as one iterative state machine.
 *
 * pgbench's advance() is the model: conn_advance() is a single
 * `for (;;) switch (c->st)` that goes round until the connection has to
 * wait (its socket, a Poisson arrival, a reconnect back-off) or is parked.
 * An engine may finish a statement inside start() (Connector/C does when the
 * reply is already there); the machine then simply goes round again, never
 * deeper, so a million synchronous completions use no more stack than one.
 *
 * The statements come from the built-in mix (workload.h), or from a
 * source with code of its own between them (struct conn_source: a
 * script's fiber, lua/lloop.c), which the machine resumes where the mix
 * would send: at the event's start, and with each reply. Both ask the one
 * window (window_state.h) the same questions at the same steps.
 *
 * Every transaction's start and end are read from the clock when they
 * happen (a reused loop timestamp stamped synchronous transactions 0 ms).
 * A transaction counts in the level iff it completes inside the window;
 * one still in flight at the window's end is finished off and not counted.
 * Nothing here prints or blocks, except the reconnect itself.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "client/pool_internal.h"
#include "client/window.h"
#include "core/util.h"

/* --db-ignore-errors: a code in the list (or "all") is retried; with a list
 * given, the engine's own retry list no longer applies, as in sysbench. */
static enum db_errclass effective_class(const struct worker_cfg *cfg, const struct db_error *e)
{
    const char *list = cfg->ignore_errors;
    if (!list || !*list || e->cls == DB_ERR_RECONNECT)
        return e->cls;
    if (!strcmp(list, "all"))
        return DB_ERR_RETRY;
    size_t cl = strlen(e->code);
    for (const char *s = list; *s;) {
        const char *comma = strchr(s, ',');
        size_t l = comma ? (size_t)(comma - s) : strlen(s);
        if (cl && l == cl && !strncmp(s, e->code, l))
            return DB_ERR_RETRY;
        s += l + (comma ? 1 : 0);
    }
    return e->cls == DB_ERR_RETRY ? DB_ERR_FATAL : e->cls;
}

void loop_fail(struct loop *l, const char *msg)
{
    if (!l->fatal[0])
        snprintf(l->fatal, sizeof l->fatal, "%s", msg);
    struct pool *p = l->pool;
    atomic_store(&p->fatal, 1);
    window_stop(&p->win);
}

/* Watch c's socket for the direction the engine asked; 0 or -1 (the run
 * fails: a connection nobody watches would hang the level). A source's
 * connection may wait on another of its connections than last time: the
 * old one leaves the epoll first. (One it closes leaves before the close:
 * conn_unwatch_db.) */
static int watch(struct loop *l, struct conn *c, enum db_status w)
{
    struct epoll_event ev = {.events = w == DB_WAIT_WRITE ? EPOLLOUT : EPOLLIN, .data.ptr = c};
    int rc = 0;
    if (c->in_epoll && c->db != c->wdb)
        conn_unwatch(l, c);
    if (!c->in_epoll) {
        int fd = l->pool->cfg.ops->fd(c->db);
        rc = epoll_ctl(l->ep, EPOLL_CTL_ADD, fd, &ev);
        c->in_epoll = rc == 0;
        c->wfd = fd;
        c->wdb = c->db;
    } else if (c->wait != w) {
        rc = epoll_ctl(l->ep, EPOLL_CTL_MOD, c->wfd, &ev);
    }
    c->wait = w;
    if (rc < 0) {
        char msg[128];
        snprintf(msg, sizeof msg, "epoll_ctl on connection %d: %s", c->idx + 1, strerror(errno));
        loop_fail(l, msg);
    }
    return rc;
}

void conn_unwatch(struct loop *l, struct conn *c)
{
    if (c->in_epoll)
        epoll_ctl(l->ep, EPOLL_CTL_DEL, c->wfd, NULL);
    c->in_epoll = 0;
}

void conn_unwatch_db(struct loop *l, struct conn *c, const struct db_conn *db)
{
    if (c->in_epoll && c->wdb == db)
        conn_unwatch(l, c);
}

static void park(struct loop *l, struct conn *c)
{
    window_leave(&l->pool->win, &c->wc);
    c->st = CS_IDLE;
    conn_unwatch(l, c);
    l->active--;
}

static void arm_timer(struct loop *l, struct conn *c)
{
    conn_unwatch(l, c);
    c->on_timer = 1;
    l->timers++;
}

static void first_stmt(struct pool *p, struct conn *c)
{
    workload_txn_begin(p->cfg.wl, &c->ws, c->idx, p->threads);
    workload_next(p->cfg.wl, &c->ws, &c->rng, &c->stmt);
    c->st = CS_SEND;
}

/* The window's answer to a free connection: its next event begins (go),
 * or it has no more. The mix sends the event's first statement; a
 * source's code is resumed with the answer (no more ends its run). 1 go
 * round again, 0 return to the loop (parked). */
static int next_event(struct loop *l, struct conn *c, int go)
{
    struct pool *p = l->pool;
    if (p->src) {
        c->answer = go;
        c->st = CS_SOURCE;
        return 1;
    }
    if (!go) {
        park(l, c);
        return 0;
    }
    first_stmt(p, c);
    return 1;
}

static void go_down(struct loop *l, struct conn *c, uint64_t now)
{
    window_leave(&l->pool->win, &c->wc);
    window_unreserve(&l->pool->win, &c->wc); /* the transaction is lost: its place goes back */
    pool_inc(&l->lost, 1);
    conn_unwatch(l, c);
    l->pool->cfg.ops->close(c->db);
    c->db = NULL;
    c->st = CS_DOWN;
    c->rolling_back = 0;
    c->down_since = now;
    c->wake_at = now;
    c->backoff_ms = 50;
}

int conn_event_done(struct loop *l, struct conn *c, uint64_t end)
{
    struct pool *p = l->pool;
    if (!window_done(&p->win, &c->wc, end))
        return 0;
    uint64_t lat = end - c->txn_start;
    hist_record(&l->lat, lat);
    pool_inc(&l->txns, 1);
    if (end > pool_get(&l->last_done))
        atomic_store_explicit(&l->last_done, end, RLX);
    pool_inc(&c->events, 1);
    pool_inc(&c->busy_ns, lat);
    if (p->txn_log) {
        if (l->nlog == l->caplog) {
            l->caplog = l->caplog ? l->caplog * 2 : 4096;
            l->log = xrealloc(l->log, l->caplog * sizeof *l->log);
        }
        l->log[l->nlog++] = (struct txn_rec){(uint32_t)c->idx, lat, end - p->win.start};
    }
    return 1;
}

void conn_event_start(struct loop *l, struct conn *c)
{
    struct window_state *w = &l->pool->win;
    if (!w->paced) /* with --rate it runs from the arrival (CS_ARRIVAL) */
        c->txn_start = now_ns();
    window_enter(w, &c->wc);
}

/* A reply came back to c (done or failed): the stall bookkeeping. */
static void replied(struct loop *l, uint64_t now)
{
    window_stall_replied(&l->stall, now, &l->pool->win);
}

/* A statement is out on c: wait for its socket. 0 (return to the loop). */
static int wait_reply(struct loop *l, struct conn *c, enum db_status st, uint64_t now)
{
    if (watch(l, c, st) < 0) {
        park(l, c);
        return 0;
    }
    window_stall_sent(&l->stall, now);
    c->st = CS_WAIT;
    return 0;
}

/* A source's connection (conn_source): resume its code with c->answer and
 * act on what it waits for now. 1 go round again, 0 return to the loop. */
static int source_step(struct loop *l, struct conn *c, uint64_t *now)
{
    int w = l->pool->src->resume(l, c, c->answer);
    if (w == DB_WAIT_READ || w == DB_WAIT_WRITE) {
        /* the clock matters only to the first statement out */
        return wait_reply(l, c, (enum db_status)w, l->stall.waiting ? *now : (*now = now_ns()));
    }
    if (w == CONN_NEXT) {
        if (l->pool->win.paced) /* else CS_BEGIN reads the clock */
            *now = now_ns();
        c->st = CS_BEGIN;
        return 1;
    }
    park(l, c);
    return 0;
}

/* The machine's reaction to what start()/cont() returned: 1 go round
 * again, 0 return to the loop (waiting or parked). */
static int on_status(struct loop *l, struct conn *c, enum db_status st, struct db_error *e,
                     uint64_t *now)
{
    struct pool *p = l->pool;
    if (st == DB_WAIT_READ || st == DB_WAIT_WRITE)
        return wait_reply(l, c, st, *now);
    if (st == DB_FAILED) {
        enum db_errclass cls = effective_class(&p->cfg, e);
        if (window_counted(&p->win, *now)) {
            pool_inc(&l->errors, 1);
            err_count_add(l->codes, &l->ncodes, e->code[0] ? e->code : "?", 1);
        }
        if (cls == DB_ERR_RETRY && !c->rolling_back) {
            /* Always an explicit ROLLBACK first, then the same transaction
             * again with fresh parameters (sysbench restarts the event). */
            c->rolling_back = 1;
            c->st = CS_SEND;
            return 1;
        }
        if (cls == DB_ERR_RECONNECT || cls == DB_ERR_RETRY) {
            go_down(l, c, *now);
            return 1;
        }
        char msg[sizeof e->msg + sizeof e->code + 16];
        /* the code too: an error before the window (the ramp) is in no count */
        snprintf(msg, sizeof msg, "%s%s%s", e->code[0] ? "[" : "", e->code[0] ? e->code : "",
                 e->code[0] ? "] " : "");
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg), "%s", e->msg);
        loop_fail(l, msg);
        park(l, c);
        return 0;
    }
    int counted = window_counted(&p->win, *now);
    if (c->rolling_back) {
        c->rolling_back = 0;
        if (counted)
            pool_inc(&l->others, 1);
        first_stmt(p, c);
        return 1;
    }
    if (counted)
        pool_inc(c->stmt.cls == WL_READ    ? &l->reads
                 : c->stmt.cls == WL_WRITE ? &l->writes
                                           : &l->others,
                 1);
    if (workload_next(p->cfg.wl, &c->ws, &c->rng, &c->stmt)) {
        c->st = CS_SEND;
        return 1;
    }
    *now = now_ns();
    conn_event_done(l, c, *now);
    window_leave(&p->win, &c->wc);
    c->st = CS_BEGIN;
    return 1;
}

/* Down: try to reconnect when the back-off has passed. 1 go round, 0 wait. */
static int reconnect(struct loop *l, struct conn *c, uint64_t *now)
{
    struct pool *p = l->pool;
    struct db_error e = {0};
    c->db = pool_open_conn(p, c->idx, 1, &e);
    *now = now_ns();
    if (c->db) {
        pool_inc(&l->reconnects, 1);
        c->in_epoll = 0;
        c->st = CS_BEGIN;
        return 1;
    }
    double down = (double)(*now - c->down_since) / 1e9;
    if (down > p->cfg.reconnect_timeout || e.cls == DB_ERR_FATAL) {
        char why[700];
        snprintf(why, sizeof why, "server unreachable for %.1f s (--reconnect-timeout=%g): %s",
                 down, p->cfg.reconnect_timeout, e.msg);
        loop_fail(l, why);
        park(l, c);
        return 0;
    }
    c->wake_at = *now + (uint64_t)c->backoff_ms * 1000000ull;
    c->backoff_ms = c->backoff_ms * 2 > 1000 ? 1000 : c->backoff_ms * 2;
    arm_timer(l, c);
    return 0;
}

/* Give c up at the level's end: its reply is still missing. The next level
 * reconnects it before its window starts. */
static void give_up(struct loop *l, struct conn *c)
{
    window_leave(&l->pool->win, &c->wc);
    if (c->st == CS_WAIT)
        l->stall.waiting--;
    conn_unwatch(l, c);
    l->unfinished++;
    c->st = CS_IDLE;
    l->active--;
    if (l->pool->src) { /* its code unwinds; the connection stays the source's */
        l->pool->src->give_up(l, c);
        return;
    }
    l->pool->cfg.ops->close(c->db);
    c->db = NULL;
    c->given_up = 1;
    c->rolling_back = 0;
}

void conn_advance(struct loop *l, struct conn *c, uint64_t now)
{
    struct pool *p = l->pool;
    const struct db_ops *ops = p->cfg.ops;
    struct db_error e;
    enum db_status st;
    int burst = 0;
    if (c->on_timer) {
        c->on_timer = 0;
        l->timers--;
    }
    for (;;) {
        switch (c->st) {
        case CS_BEGIN:
            if (++burst > CONN_BURST) {
                c->runnable = 1;
                l->runnable++;
                return;
            }
            if (!p->win.paced)
                now = now_ns();
            switch (window_begin(&p->win, &c->wc, now, &c->wake_at)) {
            case WINDOW_PARK:
                if (!next_event(l, c, 0))
                    return;
                break;
            case WINDOW_HOLD:
                arm_timer(l, c);
                return;
            case WINDOW_ARRIVAL:
                c->st = CS_ARRIVAL;
                break;
            case WINDOW_GO:
                c->txn_start = now;
                next_event(l, c, 1);
                break;
            }
            break;
        case CS_ARRIVAL:
            if (c->wake_at > now && !window_ending(&p->win, now)) {
                arm_timer(l, c);
                return;
            }
            if (window_arrived(&p->win, &c->wc, now, c->wake_at) == WINDOW_PARK) {
                if (!next_event(l, c, 0))
                    return;
                break;
            }
            c->txn_start = c->wake_at; /* window_arrived: the arrival's time */
            next_event(l, c, 1);
            break;
        case CS_SEND:
            if (atomic_load_explicit(&p->give_up, RLX)) {
                give_up(l, c); /* a huge transaction past the grace */
                return;
            }
            e.cls = DB_ERR_NONE, e.code[0] = e.msg[0] = '\0';
            st = c->rolling_back
                     ? ops->start(c->db, -1, "ROLLBACK", NULL, 0, &e)
                     : ops->start(c->db, c->stmt.id, c->stmt.sql, c->stmt.p, c->stmt.np, &e);
            if (!on_status(l, c, st, &e, &now))
                return;
            break;
        case CS_WAIT:
            if (atomic_load_explicit(&p->give_up, RLX)) {
                give_up(l, c);
                return;
            }
            if (c->err) { /* a source's: its code reads the error */
                st = ops->cont(c->db, c->err);
            } else {
                e.cls = DB_ERR_NONE, e.code[0] = e.msg[0] = '\0';
                st = ops->cont(c->db, &e);
            }
            if (st == DB_WAIT_READ || st == DB_WAIT_WRITE) {
                if (watch(l, c, st) < 0)
                    park(l, c);
                return;
            }
            replied(l, now);
            if (p->src) {
                c->answer = st;
                c->st = CS_SOURCE;
            } else if (!on_status(l, c, st, &e, &now)) {
                return;
            }
            break;
        case CS_SOURCE:
            if (!source_step(l, c, &now))
                return;
            break;
        case CS_DOWN:
            if (window_ending(&p->win, now)) {
                c->st = CS_IDLE; /* the next level tries to reconnect it */
                l->active--;
                return;
            }
            if (c->wake_at > now) {
                arm_timer(l, c);
                return;
            }
            if (!reconnect(l, c, &now))
                return;
            break;
        case CS_IDLE:
        default:
            return;
        }
    }
}

/* The loop's end-of-level: every connection still waiting is given up. */
void conn_give_up_all(struct loop *l)
{
    for (int i = 0; i < l->n; i++)
        if (l->conns[i]->st == CS_WAIT || l->conns[i]->st == CS_SEND)
            give_up(l, l->conns[i]);
}
