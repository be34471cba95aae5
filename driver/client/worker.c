/*
 * worker.c - event loops that drive many client connections.
 *
 * Each connection is a small state machine (run a statement, roll back and
 * retry, wait for its next Poisson arrival, or wait to reconnect). A loop
 * thread owns a fixed set of connections and waits on all their sockets with
 * one epoll; when a reply lands it advances that connection and sends the
 * next statement at once. Per statement the client makes one send and one
 * receive, and the wait is shared by every connection that became ready
 * together, which is where a loop saves CPU over a thread per connection.
 *
 * Counters are per loop and single-writer (relaxed atomics), so the
 * interval reporter reads them without locks and the hot path has no locked
 * instruction. Nothing here prints: interval figures go to a callback.
 */
#include "worker.h"

#include "cpulist.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "options.h"
#include "rng.h"
#include "util.h"

#define RLX memory_order_relaxed

enum cstate { C_RUN, C_ROLLBACK, C_ARRIVAL, C_DOWN, C_IDLE };

struct conn {
    struct db_conn *db;
    int idx;
    enum cstate st;
    int in_epoll;
    enum db_status wait;
    struct wl_state ws;
    struct wl_stmt stmt;
    struct rng rng;
    uint64_t txn_start, down_since, retry_at;
    uint64_t next_arrival; /* C_ARRIVAL: the pool arrival this connection took */
    unsigned backoff_ms;
    uint64_t events, busy_ns; /* this level, for fairness */
};

struct loop {
    alignas(64) _Atomic uint64_t txns;
    _Atomic uint64_t reads, writes, others, errors, reconnects, lost, last_done;
    struct hist lat;
    struct err_count codes[WORKER_MAX_CODES];
    int ncodes;
    struct pool *pool;
    pthread_t th;
    int joined;
    int ep;
    struct conn **conns;
    int n, active, timers;
    char fatal[640];
};

struct pool {
    struct worker_cfg cfg;
    struct conn **conns;
    int n;
    int threads;       /* this level */
    _Atomic int stop;  /* pool_stop or a fatal error */
    _Atomic int fatal; /* a loop failed */
    _Atomic long long events_left;
    uint64_t t0, measure_start, end; /* this level, monotonic ns */
    pthread_mutex_t arrival_lock;    /* --rate: the pool's one Poisson stream */
    uint64_t arrival;                /* its latest arrival handed out */
    struct rng arrival_rng;
    cpu_set_t client_set;
    int client_set_used;
};

static inline void inc(_Atomic uint64_t *c, uint64_t by)
{
    atomic_store_explicit(c, atomic_load_explicit(c, RLX) + by, RLX);
}

static inline uint64_t get(_Atomic uint64_t *c)
{
    return atomic_load_explicit(c, RLX);
}

/* Connect and prepare every statement of the workload. */
static struct db_conn *open_conn(const struct pool *p, int idx, struct db_error *err)
{
    const struct worker_cfg *cfg = &p->cfg;
    const struct db_target *t = &cfg->targets[idx % cfg->ntargets];
    struct db_conn *db = cfg->ops->connect(t, err);
    if (!db)
        return NULL;
    for (int i = 0; i < cfg->wl->nstmts; i++) {
        if (cfg->ops->prepare(db, i, cfg->wl->sql[i], cfg->wl->nparams[i], err) < 0) {
            cfg->ops->close(db);
            return NULL;
        }
    }
    return db;
}

static int grow(struct pool *p, int n, char *err, size_t errlen)
{
    if (n <= p->n)
        return 0;
    p->conns = xrealloc(p->conns, sizeof *p->conns * (size_t)n);
    for (int i = p->n; i < n; i++) {
        struct db_error e = {0};
        struct conn *c = xcalloc(1, sizeof *c);
        c->idx = i;
        rng_seed(&c->rng, p->cfg.seed, (uint64_t)i + 1);
        c->db = open_conn(p, i, &e);
        if (!c->db) {
            snprintf(err, errlen, "connection %d of %d: %s", i + 1, n, e.msg);
            free(c);
            return -1;
        }
        p->conns[p->n++] = c;
    }
    return 0;
}

void pool_set_client_cpus(struct pool *p, const char *list)
{
    CPU_ZERO(&p->client_set);
    p->client_set_used = 0;
    if (!list || !*list)
        return;
    /* The one CPU-list parser; the list was checked in option set-up
     * (oltp_setup), so a failure here leaves the loops unpinned. */
    struct cpulist want;
    char why[160];
    if (cpulist_init(&want) == 0 && cpulist_parse(&want, list, 0, why, sizeof why) > 0)
        for (int c = cpulist_next(&want, 0); c >= 0 && c < CPU_SETSIZE;
             c = cpulist_next(&want, c + 1)) {
            CPU_SET(c, &p->client_set);
            p->client_set_used = 1;
        }
    cpulist_free(&want);
}

struct pool *pool_open(const struct worker_cfg *cfg, int nconns, char *err, size_t errlen)
{
    struct pool *p = xcalloc(1, sizeof *p);
    p->cfg = *cfg;
    pthread_mutex_init(&p->arrival_lock, NULL);
    pool_set_client_cpus(p, cfg->client_cpus);
    if (grow(p, nconns, err, errlen) < 0) {
        pool_close(p);
        return NULL;
    }
    return p;
}

void pool_close(struct pool *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n; i++) {
        if (p->conns[i]->db)
            p->cfg.ops->close(p->conns[i]->db);
        free(p->conns[i]);
    }
    free(p->conns);
    pthread_mutex_destroy(&p->arrival_lock);
    free(p);
}

void pool_stop(struct pool *p)
{
    atomic_store(&p->stop, 1);
}

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

static void count_code(struct loop *l, const char *code)
{
    for (int i = 0; i < l->ncodes; i++)
        if (!strcmp(l->codes[i].code, code)) {
            l->codes[i].n++;
            return;
        }
    if (l->ncodes < WORKER_MAX_CODES) {
        snprintf(l->codes[l->ncodes].code, sizeof l->codes[0].code, "%s", code);
        l->codes[l->ncodes++].n = 1;
    }
}

static void set_wait(struct loop *l, struct conn *c, enum db_status w)
{
    int fd = l->pool->cfg.ops->fd(c->db);
    struct epoll_event ev = {.events = w == DB_WAIT_WRITE ? EPOLLOUT : EPOLLIN, .data.ptr = c};
    if (!c->in_epoll) {
        epoll_ctl(l->ep, EPOLL_CTL_ADD, fd, &ev);
        c->in_epoll = 1;
    } else if (c->wait != w) {
        epoll_ctl(l->ep, EPOLL_CTL_MOD, fd, &ev);
    }
    c->wait = w;
}

static void unwatch(struct loop *l, struct conn *c)
{
    if (c->in_epoll && c->db)
        epoll_ctl(l->ep, EPOLL_CTL_DEL, l->pool->cfg.ops->fd(c->db), NULL);
    c->in_epoll = 0;
}

static void fail_run(struct loop *l, const char *msg)
{
    if (!l->fatal[0]) {
        size_t n = strlen(msg);
        if (n >= sizeof l->fatal)
            n = sizeof l->fatal - 1;
        memcpy(l->fatal, msg, n);
        l->fatal[n] = '\0';
    }
    atomic_store(&l->pool->fatal, 1);
    atomic_store(&l->pool->stop, 1);
}

static void drive(struct loop *l, struct conn *c, enum db_status st, struct db_error *e,
                  uint64_t now);

static int stopping(struct loop *l, uint64_t now)
{
    struct pool *p = l->pool;
    return atomic_load_explicit(&p->stop, RLX) || (p->end && now >= p->end);
}

static double exp_draw(struct rng *r, double rate)
{
    return -log(1.0 - rng_double(r)) / rate;
}

/* --rate: the next arrival of the pool's one Poisson stream. A connection
 * takes one whenever it is free, so an arrival goes to the first connection
 * free for it and waits for one when all are busy: one queue served by
 * every connection (M/M/c), as sysbench's event queue is, rather than a
 * queue per connection behind its own slow transaction. */
static uint64_t next_arrival(struct pool *p)
{
    pthread_mutex_lock(&p->arrival_lock);
    p->arrival += (uint64_t)(exp_draw(&p->arrival_rng, p->cfg.rate) * 1e9);
    uint64_t t = p->arrival;
    pthread_mutex_unlock(&p->arrival_lock);
    return t;
}

static void park(struct loop *l, struct conn *c)
{
    c->st = C_IDLE;
    unwatch(l, c);
    l->active--;
}

/* Send the statement the workload gave, and follow it. */
static void send_stmt(struct loop *l, struct conn *c, uint64_t now)
{
    struct db_error e = {0};
    enum db_status st =
        l->pool->cfg.ops->start(c->db, c->stmt.id, c->stmt.sql, c->stmt.p, c->stmt.np, NULL, &e);
    drive(l, c, st, &e, now);
}

/* Start the connection's next transaction, or park it (arrival, stop). */
static void begin_txn(struct loop *l, struct conn *c, uint64_t now)
{
    struct pool *p = l->pool;
    if (stopping(l, now)) {
        park(l, c);
        return;
    }
    if (p->cfg.events > 0 && now >= p->measure_start && atomic_fetch_sub(&p->events_left, 1) <= 0) {
        park(l, c);
        return;
    }
    if (p->cfg.rate > 0) {
        /* Poisson arrivals: latency runs from the scheduled arrival, so time
         * spent queued while every connection was busy is counted, as in
         * sysbench. */
        c->next_arrival = next_arrival(p);
        if (c->next_arrival > now) {
            c->st = C_ARRIVAL;
            unwatch(l, c);
            l->timers++;
            return;
        }
        c->txn_start = c->next_arrival;
    } else {
        c->txn_start = now;
    }
    c->st = C_RUN;
    workload_txn_begin(p->cfg.wl, &c->ws, c->idx, p->threads);
    workload_next(p->cfg.wl, &c->ws, &c->rng, &c->stmt);
    send_stmt(l, c, now);
}

static void go_down(struct loop *l, struct conn *c, uint64_t now)
{
    inc(&l->lost, 1);
    unwatch(l, c);
    l->pool->cfg.ops->close(c->db);
    c->db = NULL;
    c->st = C_DOWN;
    c->down_since = now;
    c->retry_at = now;
    c->backoff_ms = 50;
    l->timers++;
}

static void on_error(struct loop *l, struct conn *c, struct db_error *e, uint64_t now)
{
    struct pool *p = l->pool;
    enum db_errclass cls = effective_class(&p->cfg, e);
    if (now >= p->measure_start) {
        inc(&l->errors, 1);
        count_code(l, e->code[0] ? e->code : "?");
    }
    if (cls == DB_ERR_RETRY && c->st == C_RUN) {
        /* Always an explicit ROLLBACK first, then the same transaction again
         * with fresh parameters (sysbench restarts the event). */
        c->st = C_ROLLBACK;
        struct db_error e2 = {0};
        drive(l, c, p->cfg.ops->start(c->db, -1, "ROLLBACK", NULL, 0, NULL, &e2), &e2, now);
        return;
    }
    if (cls == DB_ERR_RECONNECT || cls == DB_ERR_RETRY) {
        go_down(l, c, now);
        return;
    }
    fail_run(l, e->msg);
}

/* Advance a connection after start() or cont() returned st (e: its error). */
static void drive(struct loop *l, struct conn *c, enum db_status st, struct db_error *e,
                  uint64_t now)
{
    struct pool *p = l->pool;
    if (st == DB_WAIT_READ || st == DB_WAIT_WRITE) {
        set_wait(l, c, st);
        return;
    }
    if (st == DB_FAILED) {
        on_error(l, c, e, now);
        return;
    }
    int counted = now >= p->measure_start;
    if (c->st == C_ROLLBACK) {
        if (counted)
            inc(&l->others, 1);
        c->st = C_RUN;
        workload_txn_begin(p->cfg.wl, &c->ws, c->idx, p->threads);
    } else if (counted) {
        inc(c->stmt.cls == WL_READ    ? &l->reads
            : c->stmt.cls == WL_WRITE ? &l->writes
                                      : &l->others,
            1);
    }
    if (workload_next(p->cfg.wl, &c->ws, &c->rng, &c->stmt)) {
        send_stmt(l, c, now);
        return;
    }
    /* transaction complete */
    if (counted) {
        uint64_t lat = now - c->txn_start;
        hist_record(&l->lat, lat);
        inc(&l->txns, 1);
        atomic_store_explicit(&l->last_done, now, RLX);
        c->events++;
        c->busy_ns += lat;
    }
    begin_txn(l, c, now);
}

/* Timers: Poisson arrivals due, and reconnect attempts. */
static uint64_t run_timers(struct loop *l, uint64_t now)
{
    struct pool *p = l->pool;
    uint64_t next = UINT64_MAX;
    for (int i = 0; i < l->n && l->timers > 0; i++) {
        struct conn *c = l->conns[i];
        if (c->st == C_ARRIVAL) {
            if (stopping(l, now)) {
                l->timers--;
                c->st = C_IDLE;
                l->active--;
            } else if (c->next_arrival <= now) {
                l->timers--;
                c->txn_start = c->next_arrival;
                c->st = C_RUN;
                workload_txn_begin(p->cfg.wl, &c->ws, c->idx, p->threads);
                workload_next(p->cfg.wl, &c->ws, &c->rng, &c->stmt);
                send_stmt(l, c, now);
            } else if (c->next_arrival < next) {
                next = c->next_arrival;
            }
        } else if (c->st == C_DOWN) {
            if (stopping(l, now)) {
                l->timers--;
                c->st = C_IDLE; /* the next level tries to reconnect it */
                l->active--;
                continue;
            }
            if (c->retry_at > now) {
                if (c->retry_at < next)
                    next = c->retry_at;
                continue;
            }
            struct db_error e = {0};
            c->db = open_conn(p, c->idx, &e);
            if (c->db) {
                l->timers--;
                inc(&l->reconnects, 1);
                c->st = C_RUN;
                begin_txn(l, c, now);
                continue;
            }
            double down = (double)(now - c->down_since) / 1e9;
            if (down > p->cfg.reconnect_timeout || e.cls == DB_ERR_FATAL) {
                l->timers--;
                c->st = C_IDLE;
                l->active--;
                char why[700];
                snprintf(why, sizeof why,
                         "server unreachable for %.1f s (--reconnect-timeout=%g): %s", down,
                         p->cfg.reconnect_timeout, e.msg);
                fail_run(l, why);
                continue;
            }
            c->retry_at = now + (uint64_t)c->backoff_ms * 1000000ull;
            c->backoff_ms = c->backoff_ms * 2 > 1000 ? 1000 : c->backoff_ms * 2;
            if (c->retry_at < next)
                next = c->retry_at;
        }
    }
    return next;
}

/* epoll_pwait2 waits to the nanosecond (Poisson arrivals need better than
 * milliseconds); kernels before 5.11 and valgrind lack it, so fall back to
 * epoll_wait rounded up to the next millisecond. */
static int wait_events(int ep, struct epoll_event *evs, int max, const struct timespec *ts)
{
    static _Atomic int no_pwait2;
    if (!atomic_load_explicit(&no_pwait2, RLX)) {
        int n = epoll_pwait2(ep, evs, max, ts, NULL);
        if (n >= 0 || errno != ENOSYS)
            return n;
        atomic_store_explicit(&no_pwait2, 1, RLX);
    }
    long long ms = (long long)ts->tv_sec * 1000 + (ts->tv_nsec + 999999) / 1000000;
    return epoll_wait(ep, evs, max, ms > 1000000 ? 1000000 : (int)ms);
}

static void *loop_main(void *arg)
{
    struct loop *l = arg;
    struct pool *p = l->pool;
    if (p->client_set_used)
        pthread_setaffinity_np(pthread_self(), sizeof p->client_set, &p->client_set);
    uint64_t now = now_ns();
    l->active = l->n;
    for (int i = 0; i < l->n; i++) {
        struct conn *c = l->conns[i];
        c->events = c->busy_ns = 0;
        if (c->db) {
            begin_txn(l, c, now);
        } else {
            /* still down from an earlier level: the outage keeps its start,
             * so --reconnect-timeout counts across levels */
            l->timers++;
            c->st = C_DOWN;
            c->retry_at = now;
        }
    }
    struct epoll_event evs[64];
    while (l->active > 0) {
        now = now_ns();
        uint64_t wake = l->timers ? run_timers(l, now) : UINT64_MAX;
        if (l->active <= 0)
            break;
        if (p->end && !stopping(l, now) && p->end < wake)
            wake = p->end;
        /* a stop request is noticed within 50 ms even when nothing moves */
        uint64_t cap = now + 50000000ull;
        if (wake > cap)
            wake = cap;
        struct timespec ts = {0, 0};
        if (wake > now) {
            uint64_t d = wake - now;
            ts.tv_sec = (time_t)(d / 1000000000ull);
            ts.tv_nsec = (long)(d % 1000000000ull);
        }
        int n = wait_events(l->ep, evs, 64, &ts);
        if (n < 0 && errno != EINTR) {
            fail_run(l, strerror(errno));
            break;
        }
        now = now_ns();
        for (int i = 0; i < n; i++) {
            struct conn *c = evs[i].data.ptr;
            if (!c->db || c->st == C_IDLE || c->st == C_ARRIVAL || c->st == C_DOWN)
                continue;
            struct db_error e = {0};
            drive(l, c, p->cfg.ops->cont(c->db, NULL, &e), &e, now);
        }
        if (atomic_load_explicit(&p->fatal, RLX))
            break;
    }
    return NULL;
}

/* Running totals over all loops, for interval deltas. */
struct totals {
    uint64_t txns, reads, writes, others, errors, reconnects;
};

static void sum_loops(struct loop *loops, int nl, struct totals *t, struct hist *h)
{
    memset(t, 0, sizeof *t);
    hist_init(h);
    for (int i = 0; i < nl; i++) {
        t->txns += get(&loops[i].txns);
        t->reads += get(&loops[i].reads);
        t->writes += get(&loops[i].writes);
        t->others += get(&loops[i].others);
        t->errors += get(&loops[i].errors);
        t->reconnects += get(&loops[i].reconnects);
        hist_merge(h, &loops[i].lat);
    }
}

/* One period's figures from the difference of two snapshots. */
static void interval(struct pool *p, struct loop *loops, int nl, double t, double dt,
                     struct totals *prev, struct hist *prevh, struct hist *cur, struct hist *tmp)
{
    struct totals now;
    sum_loops(loops, nl, &now, cur);
    hist_diff(tmp, cur, prevh);
    struct interval_stats st = {
        .t = t,
        .dt = dt,
        .threads = p->threads,
        .tps = (double)(now.txns - prev->txns) / dt,
        .reads = (double)(now.reads - prev->reads) / dt,
        .writes = (double)(now.writes - prev->writes) / dt,
        .others = (double)(now.others - prev->others) / dt,
        .pct = p->cfg.report_pct > 0 ? p->cfg.report_pct : 95,
        .errors = (double)(now.errors - prev->errors) / dt,
        .reconnects = (double)(now.reconnects - prev->reconnects) / dt,
    };
    st.lat_ms = (double)hist_percentile(tmp, st.pct) / 1e6;
    if (p->cfg.on_interval)
        p->cfg.on_interval(&st, p->cfg.on_interval_arg);
    *prev = now;
    hist_copy(prevh, cur);
}

static double rusage_s(const struct timeval *tv)
{
    return (double)tv->tv_sec + tv->tv_usec / 1e6;
}

int pool_run(struct pool *p, int threads, struct level_result *out)
{
    memset(out, 0, sizeof *out);
    out->threads = threads;
    uint64_t setup0 = now_ns();
    char err[600];
    atomic_store(&p->stop, 0);
    atomic_store(&p->fatal, 0);
    if (grow(p, threads, err, sizeof err) < 0) {
        snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", err);
        return -1;
    }
    out->setup_s = (double)(now_ns() - setup0) / 1e9;
    p->threads = threads;
    int nl = p->cfg.loops;
    if (nl <= 0) {
        /* One loop per client CPU (fewer with fewer connections). A loop
         * per connection wakes once per reply; a loop shared by the
         * connections of one CPU often serves several replies per wake-up,
         * and its CPU is never idle while the others are. One loop for
         * everything is worse: to the scheduler it is one task among the
         * server's busy backends and all its connections stall while it
         * waits its turn. Measured here (2 CPUs, oltp_read_only, 4
         * connections, PostgreSQL): 2 loops 3530 TPS and 134-143 us of
         * client CPU per transaction, 4 loops 3100 TPS and 163 us, 1 loop
         * 2450-2530 TPS and 173-181 us. */
        nl = p->client_set_used ? CPU_COUNT(&p->client_set) : (int)sysconf(_SC_NPROCESSORS_ONLN);
        if (nl < 1)
            nl = 1;
    }
    if (nl > threads)
        nl = threads;
    out->loops = nl;
    struct loop *loops = aligned_alloc(64, sizeof *loops * (size_t)nl);
    memset(loops, 0, sizeof *loops * (size_t)nl);
    for (int i = 0; i < nl; i++) {
        loops[i].pool = p;
        loops[i].ep = epoll_create1(EPOLL_CLOEXEC);
        loops[i].conns = xcalloc((size_t)threads, sizeof *loops[i].conns);
        hist_init(&loops[i].lat);
    }
    for (int i = 0; i < threads; i++) {
        struct loop *l = &loops[i % nl];
        p->conns[i]->in_epoll = 0;
        l->conns[l->n++] = p->conns[i];
    }
    p->t0 = now_ns();
    p->arrival = p->t0;
    rng_seed(&p->arrival_rng, p->cfg.seed, 0); /* connections use streams 1.. */
    p->measure_start = p->t0 + (uint64_t)(p->cfg.warmup_s * 1e9);
    p->end = p->cfg.time_s > 0 ? p->measure_start + (uint64_t)(p->cfg.time_s * 1e9) : 0;
    atomic_store(&p->events_left, p->cfg.events);

    /* the loops inherit a mask with the stop signals blocked: only the
     * calling thread handles SIGINT/SIGTERM */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    for (int i = 0; i < nl; i++)
        pthread_create(&loops[i].th, NULL, loop_main, &loops[i]);
    pthread_sigmask(SIG_SETMASK, &old, NULL);

    /* This thread keeps time: rusage at the window's edges, interval lines. */
    struct rusage ru0, ru1;
    int have_ru0 = 0;
    struct hist *h[3];
    for (int i = 0; i < 3; i++) {
        h[i] = xmalloc(sizeof(struct hist));
        hist_init(h[i]);
    }
    struct totals prev = {0};
    double ri = p->cfg.report_interval;
    uint64_t next_report = ri > 0 ? p->measure_start + (uint64_t)(ri * 1e9) : UINT64_MAX;
    int tick = 0;
    for (;;) {
        uint64_t now = now_ns();
        if (!have_ru0 && now >= p->measure_start) {
            getrusage(RUSAGE_SELF, &ru0);
            have_ru0 = 1;
        }
        if (now >= next_report && !atomic_load(&p->stop)) {
            tick++;
            interval(p, loops, nl, ri * tick, ri, &prev, h[0], h[1], h[2]);
            next_report += (uint64_t)(ri * 1e9);
        }
        int done = 1;
        for (int i = 0; i < nl; i++) {
            if (!loops[i].joined && pthread_tryjoin_np(loops[i].th, NULL) == 0)
                loops[i].joined = 1;
            done &= loops[i].joined;
        }
        if (done)
            break;
        if (p->end && now >= p->end && have_ru0 && !out->time_s) {
            getrusage(RUSAGE_SELF, &ru1);
            out->time_s = (double)(p->end - p->measure_start) / 1e9;
        }
        uint64_t wake = now + 20000000ull;
        if (!have_ru0 && p->measure_start < wake)
            wake = p->measure_start;
        if (next_report < wake)
            wake = next_report;
        if (p->end && now < p->end && p->end < wake)
            wake = p->end;
        struct timespec ts = {(time_t)(wake / 1000000000ull), (long)(wake % 1000000000ull)};
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    }
    uint64_t last = 0;
    for (int i = 0; i < nl; i++)
        if (get(&loops[i].last_done) > last)
            last = get(&loops[i].last_done);
    if (!out->time_s) {
        getrusage(RUSAGE_SELF, &ru1);
        uint64_t stop_at = last > p->measure_start ? last : now_ns();
        out->time_s = (double)(stop_at - p->measure_start) / 1e9;
        if (out->time_s <= 0)
            out->time_s = 1e-9;
    }
    if (!have_ru0)
        ru0 = ru1;
    out->client_user_s = rusage_s(&ru1.ru_utime) - rusage_s(&ru0.ru_utime);
    out->client_sys_s = rusage_s(&ru1.ru_stime) - rusage_s(&ru0.ru_stime);
    out->client_csw = (double)(ru1.ru_nvcsw - ru0.ru_nvcsw + ru1.ru_nivcsw - ru0.ru_nivcsw);

    out->lat = xmalloc(sizeof(struct hist));
    hist_init(out->lat);
    for (int i = 0; i < nl; i++) {
        struct loop *l = &loops[i];
        out->txns += get(&l->txns);
        out->reads += get(&l->reads);
        out->writes += get(&l->writes);
        out->others += get(&l->others);
        out->errors += get(&l->errors);
        out->reconnects += get(&l->reconnects);
        out->lost += get(&l->lost);
        hist_merge(out->lat, &l->lat);
        for (int k = 0; k < l->ncodes; k++) {
            int j = 0;
            while (j < out->ncodes && strcmp(out->codes[j].code, l->codes[k].code))
                j++;
            if (j == out->ncodes && out->ncodes < WORKER_MAX_CODES)
                out->codes[out->ncodes++] = l->codes[k];
            else if (j < out->ncodes)
                out->codes[j].n += l->codes[k].n;
        }
        if (l->fatal[0] && !out->fatal_msg[0])
            snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", l->fatal);
        close(l->ep);
        free(l->conns);
    }
    /* thread fairness over connections, as sysbench reports per thread */
    double se = 0, se2 = 0, st = 0, st2 = 0;
    for (int i = 0; i < threads; i++) {
        double e = (double)p->conns[i]->events, t = (double)p->conns[i]->busy_ns / 1e9;
        se += e, se2 += e * e, st += t, st2 += t * t;
    }
    out->fair_events_avg = se / threads;
    out->fair_events_sd =
        sqrt(fmax(0, se2 / threads - out->fair_events_avg * out->fair_events_avg));
    out->fair_time_avg = st / threads;
    out->fair_time_sd = sqrt(fmax(0, st2 / threads - out->fair_time_avg * out->fair_time_avg));
    free(loops);
    for (int i = 0; i < 3; i++)
        free(h[i]);
    if (out->fatal_msg[0])
        return -1;
    out->interrupted = atomic_load(&p->stop) != 0;
    return out->interrupted ? 1 : 0;
}

void level_result_free(struct level_result *r)
{
    free(r->lat);
    r->lat = NULL;
}
