/*
 * pool_open.c - opening a pool's connections: connect, then prepare every
 * statement of the workload.
 *
 * The one idea: a level's new connections open in parallel, a few threads
 * each taking the next index, because a connect is mostly waiting (TCP,
 * the authentication exchange, a round trip per prepared statement) and
 * PostgreSQL's SCRAM costs both sides CPU: one at a time, 256 connections
 * took 12 s here against sysbench's 7 (a thread per connection). The pool
 * still comes out in index order, so connection i talks to target
 * i % ntargets and draws random stream i + 1 whatever the timing was, and a
 * failure is reported for the lowest index that failed, as before.
 */
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/pool_internal.h"
#include "client/rng.h"
#include "core/util.h"

/* at most this many connects in flight: enough to keep a local server's
 * CPUs busy with the handshakes, few enough not to queue at its listener */
#define POOL_OPEN_THREADS 8

/* the connect of a first open, given `left` seconds of --thread-init-timeout
 * (0 = unlimited): never more than is left, never under libpq's 2 s minimum;
 * left < 0: a reconnect (WORKER_RECONNECT_TIMEOUT_S) */
static struct db_conn *open_within(const struct pool *p, int idx, double left, struct db_error *err)
{
    const struct worker_cfg *cfg = &p->cfg;
    struct db_target t = cfg->targets[idx % cfg->ntargets];
    if (left < 0)
        t.connect_timeout_s = WORKER_RECONNECT_TIMEOUT_S;
    else if (left > 0) {
        int cap = left < 2 ? 2 : (int)(left + 0.999);
        if (t.connect_timeout_s <= 0 || t.connect_timeout_s > cap)
            t.connect_timeout_s = cap;
    }
    struct db_conn *db = cfg->ops->connect(&t, err);
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

struct db_conn *pool_open_conn(const struct pool *p, int idx, int again, struct db_error *err)
{
    return open_within(p, idx, again ? -1 : 0, err);
}

/* One grow: indexes [from, to) of p, opened into slot[i - from]. */
struct grow {
    const struct pool *p;
    int from, to;
    struct conn **slot;
    double limit; /* --thread-init-timeout, 0 = none */
    uint64_t t0;
    _Atomic int next;
    pthread_mutex_t mu;
    int failed_at; /* lowest index that failed, INT_MAX = none (under mu) */
    int timed_out; /* that failure was the init timeout */
    struct db_error err;
};

static void grow_failed(struct grow *g, int i, int timed_out, const struct db_error *e)
{
    pthread_mutex_lock(&g->mu);
    if (i < g->failed_at) {
        g->failed_at = i;
        g->timed_out = timed_out;
        if (e)
            g->err = *e;
    }
    pthread_mutex_unlock(&g->mu);
}

static int grow_stopped_before(struct grow *g, int i)
{
    pthread_mutex_lock(&g->mu);
    int r = g->failed_at < i;
    pthread_mutex_unlock(&g->mu);
    return r;
}

static void *grow_main(void *arg)
{
    struct grow *g = arg;
    for (;;) {
        int i = atomic_fetch_add(&g->next, 1);
        if (i >= g->to || grow_stopped_before(g, i))
            break;
        double left = g->limit > 0 ? g->limit - (double)(now_ns() - g->t0) / 1e9 : 0;
        if (g->limit > 0 && left <= 0) {
            grow_failed(g, i, 1, NULL);
            break;
        }
        struct db_error e = {0};
        struct conn *c = xcalloc(1, sizeof *c);
        c->idx = i;
        rng_seed(&c->rng, g->p->cfg.seed, (uint64_t)i + 1);
        c->db = open_within(g->p, i, left, &e);
        if (!c->db) {
            free(c);
            grow_failed(g, i, 0, &e);
            continue;
        }
        g->slot[i - g->from] = c;
    }
    return NULL;
}

int pool_grow(struct pool *p, int n, char *err, size_t errlen)
{
    if (n <= p->n)
        return 0;
    p->conns = xrealloc(p->conns, sizeof *p->conns * (size_t)n);
    struct grow g = {.p = p,
                     .from = p->n,
                     .to = n,
                     .limit = p->cfg.init_timeout_s,
                     .t0 = now_ns(),
                     .failed_at = INT_MAX};
    g.slot = xcalloc((size_t)(n - p->n), sizeof *g.slot);
    atomic_init(&g.next, p->n);
    pthread_mutex_init(&g.mu, NULL);
    int nt = n - p->n < POOL_OPEN_THREADS ? n - p->n : POOL_OPEN_THREADS;
    pthread_t th[POOL_OPEN_THREADS];
    int started = 0;
    if (nt > 1) {
        /* the stop signals stay with the calling thread, as for the loops */
        sigset_t block, old;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &block, &old);
        for (; started < nt - 1; started++)
            if (pthread_create(&th[started], NULL, grow_main, &g) != 0)
                break;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    grow_main(&g); /* this thread takes its share too (all of it, if none started) */
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    /* keep the opened prefix, in index order; close what opened past a failure */
    int keep = g.failed_at < n ? g.failed_at : n;
    for (int i = g.from; i < n; i++) {
        struct conn *c = g.slot[i - g.from];
        if (i < keep)
            p->conns[p->n++] = c;
        else if (c) {
            p->cfg.ops->close(c->db);
            free(c);
        }
    }
    free(g.slot);
    pthread_mutex_destroy(&g.mu);
    if (keep == n)
        return 0;
    if (g.timed_out) /* sysbench's words (--thread-init-timeout) */
        snprintf(err, errlen,
                 "Worker threads failed to initialize within %.0f seconds! (%d of %d "
                 "connections open)",
                 g.limit, p->n, n);
    else
        snprintf(err, errlen, "connection %d of %d: %s", keep + 1, n, g.err.msg);
    return -1;
}
