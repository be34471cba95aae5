/*
 * pool_internal.h - the insides the client's files share: the pool and its
 * level (worker.c, level.c), the event loops (loop.c) and the connection
 * state machine (conn.c). The face for callers is worker.h; the one other
 * room that comes in here is lua/, whose script connections are this
 * machine's connections with a statement source of their own (struct
 * conn_source, lua/lloop.c).
 */
#ifndef DBSCALE_POOL_INTERNAL_H
#define DBSCALE_POOL_INTERNAL_H

#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stdint.h>
#include <sys/resource.h>

#include "client/arrivals.h"
#include "client/evloop.h"
#include "core/cpulist.h"
#include "client/ticker.h"
#include "client/window.h"
#include "client/window_state.h"
#include "client/worker.h"

#define RLX memory_order_relaxed

/* Transactions one conn_advance() call may complete without waiting before
 * it yields to the loop's other connections: an engine that answers inside
 * start() would otherwise keep the loop (and its other connections) for
 * the whole level. */
#define CONN_BURST 32

enum cstate {
    CS_BEGIN,   /* between transactions: start the next one, or park */
    CS_ARRIVAL, /* --rate: timer until the arrival this connection took */
    CS_SEND,    /* send c->stmt (or the ROLLBACK of a retry) */
    CS_WAIT,    /* a statement is out: wait for the socket, then cont() */
    CS_DOWN,    /* connection lost: timer until the next reconnect attempt */
    CS_IDLE,    /* parked for the rest of the level */
    CS_SOURCE,  /* a source's connection: resume its code with c->answer */
};

/* What a source's code waits for when it hands the connection back
 * (conn_source.resume): DB_WAIT_READ / DB_WAIT_WRITE (a statement is out
 * on c->db), CONN_NEXT (it is free for its next event: the window
 * decides, and answers 1 begin it, 0 no more), or DB_DONE (its run is
 * over: the connection parks). */
#define CONN_NEXT 16

/* A statement source other than the built-in mix (worker_cfg.wl): code of
 * its own that runs between the statements and sends them itself, as a
 * script's fiber does (lua/lloop.c). The machine keeps what is the same
 * for every connection: the window's decisions, the waits on the socket
 * and the timers, the stall and the give-up. The source runs the events,
 * counts its statements and classifies its errors (the script restarts
 * its event, or reconnects, itself), and reports an event's edges with
 * conn_event_start / conn_event_done. */
struct conn;
struct loop;
struct pool;
struct window_counts;
struct conn_source {
    /* Resume c's code with the answer to what it waited for (the window's
     * 1/0 after CONN_NEXT; the reply's DB_DONE / DB_FAILED after a wait,
     * its error in c->err; anything when it starts): what it waits for now. */
    int (*resume)(struct loop *l, struct conn *c, int answer);
    /* The level gives up c's reply: its code unwinds without it. */
    void (*give_up)(struct loop *l, struct conn *c);
    /* The level's run (pool_run) asks these too; each may be NULL. On l's
     * thread: before the start gate (a script's thread_init; it adds the
     * connections that will run to p->running), and after loop_run (its
     * thread_done, then its teardown). */
    void (*loop_begin)(struct loop *l);
    void (*loop_end)(struct loop *l);
    /* From the timing thread: the window opens (a script takes its
     * counters' baselines); the statements it counted since, added to w
     * (the machine counts only the events of a source's connections). */
    void (*window_open)(struct pool *p);
    void (*counts)(struct pool *p, struct window_counts *w);
    /* 1 once a loop will never come back (a script's code stuck in
     * compiled code, lua/lwatch.c): pool_run returns at once and leaves
     * everything of the level as it is, for the process's exit. */
    int (*abandoned)(struct pool *p);
};

struct conn {
    struct db_conn *db;
    int idx;
    enum cstate st;
    int in_epoll, on_timer, rolling_back;
    int given_up; /* dropped at a level's end with a reply missing */
    int runnable; /* yielded between transactions: the loop resumes it */
    int answer;   /* CS_SOURCE: what the source's code is resumed with */
    /* this level's: warm (the ramp), --events' place, --rate's concurrency */
    struct window_conn wc;
    enum db_status wait;
    int wfd;                   /* the socket in the loop's epoll (in_epoll) */
    const struct db_conn *wdb; /* whose socket it is */
    struct db_error *err;      /* a source's: where a reply's error goes */
    uint64_t wake_at;          /* CS_ARRIVAL / CS_DOWN: when the timer fires */
    struct wl_state ws;
    struct wl_stmt stmt;
    struct rng rng;
    uint64_t txn_start, down_since;
    unsigned backoff_ms;
    /* this level, for fairness; atomic (one writer, relaxed) because a
     * --report-checkpoints report reads them while the level runs */
    _Atomic uint64_t events, busy_ns;
};

/* The transaction log (worker_cfg.txn_log, DBSCALE_TXN_LOG): (connection,
 * latency, end in the window) of every counted transaction, kept per loop until the level ends. */
struct txn_rec {
    uint32_t conn;
    uint64_t lat_ns;
    uint64_t end_ns; /* its completion, since the window's start */
};

struct loop {
    alignas(64) _Atomic uint64_t txns;
    _Atomic uint64_t reads, writes, others, errors, reconnects, lost, last_done;
    struct hist lat;
    struct err_count codes[WORKER_MAX_CODES];
    int ncodes;
    struct pool *pool;
    int idx; /* in the level's loops */
    pthread_t th;
    int started, joined;
    int ep;
    /* an eventfd in ep (data.ptr: the loop itself), -1 none: the window
     * opened after the ramp (loop_kick), so the connections it holds begin
     * now rather than at their next poll */
    int kick;
    /* a periodic timerfd in ep (data.ptr: &tick): the loop waits with no
     * timeout for it rather than arm a timer at every wait; -1 none (many
     * loops a CPU, evloop_ticks): timed waits (client/evloop.h) */
    int tick;
    struct conn **conns;
    int n, active, timers;
    struct window_stall stall; /* waiting: connections in CS_WAIT (client/window.h) */
    int runnable;              /* connections that yielded without waiting */
    uint64_t unfinished;       /* given up at the end */
    struct txn_rec *log;
    size_t nlog, caplog;
    char fatal[640];
};

struct pool {
    struct worker_cfg cfg;
    struct conn **conns;
    int n;
    int threads; /* this level */
    /* the window the loops ask (window_state.h): its stop (pool_stop or
     * a fatal error), edges, --events counts, ramp and --rate stream */
    struct window_state win;
    /* NULL: the connections run worker_cfg.wl; else every one is this
     * source's (lua/lloop.c), and the connections are the source's own */
    const struct conn_source *src;
    void *src_arg; /* the source's, for its hooks */
    /* The window's phase (level.c: WIN_*), moved on by compare-and-swap so
     * it closes once: from the timing thread at its end, or, with the tail
     * rule (win.tail), where the last of the `running` connections of a
     * source ended its run (level_conn_over, from that loop). The closer
     * writes closed_ns / closed_ru before the phase becomes closed. */
    _Atomic int phase, running;
    uint64_t closed_ns;
    struct rusage closed_ru;
    _Atomic int fatal; /* a loop failed */
    _Atomic int give_up;
    int ramp;    /* this level's window waits for every connection's first (worker.h) */
    uint64_t t0; /* this level, monotonic ns */
    /* the start gate: loops wait at it until all are running, so the clock
     * (t0, the window) starts with every loop ready, not with thread creation */
    pthread_mutex_t gate_lock;
    pthread_cond_t gate_cond;
    int gate_ready, gate_open;
    int window_gated;          /* before_window was called at the start gate (no warmup) */
    struct ticker tick;        /* level.c: the window's periods and checkpoints */
    struct cpulist client_set; /* where the loops run, when client_ncpus > 0 */
    int client_ncpus;
    const char *txn_log; /* path, or NULL */
};

static inline void pool_inc(_Atomic uint64_t *c, uint64_t by)
{
    atomic_store_explicit(c, atomic_load_explicit(c, RLX) + by, RLX);
}

static inline uint64_t pool_get(_Atomic uint64_t *c)
{
    return atomic_load_explicit(c, RLX);
}

/* The level's window waits for every connection's first transaction
 * (worker_cfg.ramp_timeout_s). */
static inline int pool_ramps(const struct pool *p)
{
    return window_ramps(p->cfg.ramp_timeout_s, p->cfg.events, p->cfg.rate);
}

/* How many event loops a level of `threads` connections runs on
 * (--client-loops, else one per client CPU, never more than connections):
 * pool_run's count, which a source sizes its per-loop state by. */
static inline int pool_loops(const struct pool *p, int threads)
{
    return evloop_count(p->cfg.loops, p->client_ncpus, threads);
}

/* A pool of no connections yet (pool_open opens them; a source's run puts
 * its own in conns). */
struct pool *pool_new(const struct worker_cfg *cfg);
/* Connect and prepare every statement of the workload; again: a reconnect
 * (short connect timeout, WORKER_RECONNECT_TIMEOUT_S). */
struct db_conn *pool_open_conn(const struct pool *p, int idx, int again, struct db_error *err);
/* Open connections p->n .. n-1 (pool_open.c: several at a time, kept in
 * index order). -1 with err naming the lowest one that failed; the ones
 * before it stay open in the pool. */
int pool_grow(struct pool *p, int n, char *err, size_t errlen);
/* Stop the run with msg (the first one wins). */
void loop_fail(struct loop *l, const char *msg);
/* Run c until it must wait (socket, timer) or is parked. */
void conn_advance(struct loop *l, struct conn *c, uint64_t now);
/* A source's event began: its latency runs from now (or, with --rate,
 * from its arrival). */
void conn_event_start(struct loop *l, struct conn *c);
/* A source's event ended at end (read from the clock just now): 1 when it
 * counts (window_done), as the built-in mix's transactions are counted. */
int conn_event_done(struct loop *l, struct conn *c, uint64_t end);
/* Stop watching c's socket. */
void conn_unwatch(struct loop *l, struct conn *c);
/* A source is about to close db (its socket still open): c stops watching
 * it if it does, while the number is still the socket's own. */
void conn_unwatch_db(struct loop *l, struct conn *c, const struct db_conn *db);
/* Give up every connection of l still waiting for a reply. */
void conn_give_up_all(struct loop *l);
/* From the timing thread: the window opened after the ramp; l's held
 * connections begin at once. */
void loop_kick(struct loop *l);
/* The loop thread of a level: its start gate, then loop_run. */
void *loop_main(void *arg);
/* Drive l's connections from their first step until every one is parked
 * (or the level gives up, or fails). */
void loop_run(struct loop *l);

#endif
