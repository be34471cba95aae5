/*
 * worker.c - the pool of client connections and one level's run.
 *
 * A pool holds open, prepared connections that stay open between levels.
 * pool_run() starts the level's event loops (loop.c), each owning a share
 * of the connections and driving their state machines (conn.c); this
 * thread then keeps time and collects the figures (level.c). It must never
 * leave a loop thread running when it returns, and never print.
 */
#include "client/worker.h"

#include "core/cpulist.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/resource.h>
#include <unistd.h>

#include "client/evloop.h"
#include "client/level.h"
#include "core/options.h"
#include "client/pool_internal.h"
#include "client/rng.h"
#include "core/util.h"

/* Connections given up at the end of the last level are reconnected before
 * this one's window, so its figures do not pay for the last one's trouble.
 * After the first failure the rest are left to the loops' back-off: a hung
 * server must not cost a connect timeout per connection here. */
static void revive(struct pool *p, int threads)
{
    uint64_t now = now_ns();
    int failed = 0;
    for (int i = 0; i < threads; i++) {
        struct conn *c = p->conns[i];
        if (!c->given_up)
            continue;
        c->given_up = 0;
        struct db_error e = {0};
        if (!failed)
            c->db = pool_open_conn(p, i, 1, &e);
        if (!c->db) {
            failed = 1;
            c->down_since = now;
        }
    }
}

void pool_set_client_cpus(struct pool *p, const char *list)
{
    /* The one CPU-list parser and set type, so a 2048-CPU machine pins as
     * well as this one; the list was checked in option set-up (oltp_setup),
     * so a failure here leaves the loops unpinned. */
    cpulist_free(&p->client_set);
    p->client_ncpus = 0;
    if (!list || !*list)
        return;
    char why[160];
    if (cpulist_init(&p->client_set) == 0 &&
        cpulist_parse(&p->client_set, list, 0, why, sizeof why) > 0)
        p->client_ncpus = cpulist_count(&p->client_set);
}

struct pool *pool_new(const struct worker_cfg *cfg)
{
    struct pool *p = xcalloc(1, sizeof *p);
    p->cfg = *cfg;
    p->txn_log = cfg->txn_log ? cfg->txn_log : getenv("DBSCALE_TXN_LOG");
    if (p->txn_log && !*p->txn_log)
        p->txn_log = NULL;
    p->win.events = cfg->events; /* the window's settings: every level's */
    p->win.paced = cfg->rate > 0;
    arrivals_init(&p->win.arrivals);
    pthread_mutex_init(&p->gate_lock, NULL);
    pthread_condattr_t ca; /* a timed wait on it (wait_ready) runs on now_ns()'s clock */
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&p->gate_cond, &ca);
    pthread_condattr_destroy(&ca);
    pool_set_client_cpus(p, cfg->client_cpus);
    return p;
}

struct pool *pool_open(const struct worker_cfg *cfg, int nconns, char *err, size_t errlen)
{
    struct pool *p = pool_new(cfg);
    if (pool_grow(p, nconns, err, errlen) < 0) {
        pool_close(p);
        return NULL;
    }
    return p;
}

void pool_close(struct pool *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->n && !p->src; i++) { /* a source's are its own */
        if (p->conns[i]->db)
            p->cfg.ops->close(p->conns[i]->db);
        free(p->conns[i]);
    }
    free(p->conns);
    cpulist_free(&p->client_set);
    arrivals_destroy(&p->win.arrivals);
    pthread_mutex_destroy(&p->gate_lock);
    pthread_cond_destroy(&p->gate_cond);
    free(p);
}

/* Only lock-free atomics and clock_gettime: safe in a signal handler. The
 * stop's time ends the window. */
void pool_stop(struct pool *p)
{
    window_stop(&p->win);
}

static void free_loops(struct loop *loops, int nl)
{
    for (int i = 0; i < nl; i++) {
        if (loops[i].ep >= 0)
            close(loops[i].ep);
        if (loops[i].kick >= 0)
            close(loops[i].kick);
        if (loops[i].tick >= 0)
            close(loops[i].tick);
        free(loops[i].conns);
        free(loops[i].log);
    }
    free(loops);
}

/* The loop's kick (loop_kick, loop.c), in its epoll with the loop itself
 * as the event's pointer. */
static void add_kick(struct loop *l)
{
    l->kick = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = l};
    if (l->kick >= 0 && epoll_ctl(l->ep, EPOLL_CTL_ADD, l->kick, &ev) < 0) {
        close(l->kick);
        l->kick = -1;
    }
}

/* The loop's tick (client/evloop.h), every EVLOOP_TICK_NS from now, in
 * its epoll with &l->tick as the event's pointer. */
static void add_tick(struct loop *l)
{
    l->tick = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    struct timespec t = {0, (long)EVLOOP_TICK_NS};
    struct itimerspec its = {.it_interval = t, .it_value = t};
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &l->tick};
    if (l->tick >= 0 && (timerfd_settime(l->tick, 0, &its, NULL) < 0 ||
                         epoll_ctl(l->ep, EPOLL_CTL_ADD, l->tick, &ev) < 0)) {
        close(l->tick);
        l->tick = -1;
    }
}

/* Stop and join the loops already started (a later start failed). */
static void abort_loops(struct pool *p, struct loop *loops, int nl)
{
    atomic_store(&p->win.stop, 1);
    atomic_store(&p->give_up, 1);
    for (int i = 0; i < nl; i++)
        if (loops[i].started)
            pthread_join(loops[i].th, NULL);
}

/* With gate_lock held: wait until the `started` loops are at the start
 * gate. A source's loops run its code first (a script's thread_init):
 * every 50 ms the wait asks whether one was abandoned (-1). */
static int wait_ready(struct pool *p, int started)
{
    while (p->gate_ready < started) {
        if (!p->src) {
            pthread_cond_wait(&p->gate_cond, &p->gate_lock);
            continue;
        }
        if (p->src->abandoned && p->src->abandoned(p))
            return -1;
        uint64_t at = now_ns() + 50000000ull;
        struct timespec ts = {(time_t)(at / 1000000000ull), (long)(at % 1000000000ull)};
        pthread_cond_timedwait(&p->gate_cond, &p->gate_lock, &ts);
    }
    return 0;
}

/* The level's loops, each with its share of the connections, running.
 * NULL with err when a resource could not be had (nothing left running),
 * or with *abandoned set when a source's loop never reached the gate. */
static struct loop *start_loops(struct pool *p, int nl, int *abandoned, char *err, size_t errlen)
{
    size_t sz = sizeof(struct loop) * (size_t)nl; /* a multiple of its 64-byte alignment */
    struct loop *loops = aligned_alloc(64, sz);
    if (!loops) {
        snprintf(err, errlen, "out of memory for %d event loops", nl);
        return NULL;
    }
    memset(loops, 0, sz);
    for (int i = 0; i < nl; i++) {
        loops[i].pool = p;
        loops[i].idx = i;
        loops[i].ep = loops[i].kick = loops[i].tick = -1;
    }
    int ramps = pool_ramps(p), ticks = evloop_ticks(nl, p->client_ncpus);
    for (int i = 0; i < nl; i++) {
        loops[i].conns = xcalloc((size_t)p->threads, sizeof *loops[i].conns);
        hist_init(&loops[i].lat);
        loops[i].ep = epoll_create1(EPOLL_CLOEXEC);
        if (loops[i].ep < 0) {
            snprintf(err, errlen, "epoll_create1: %s", strerror(errno));
            free_loops(loops, nl);
            return NULL;
        }
        if (ramps) /* without one (no eventfd), a held connection waits for its poll */
            add_kick(&loops[i]);
        if (ticks)
            add_tick(&loops[i]);
    }
    for (int i = 0; i < p->threads; i++) {
        struct loop *l = &loops[i % nl];
        p->conns[i]->in_epoll = 0;
        l->conns[l->n++] = p->conns[i];
    }
    p->gate_ready = p->gate_open = 0;

    /* the loops inherit a mask with the stop signals blocked: only the
     * calling thread handles SIGINT/SIGTERM */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int rc = 0, started = 0;
    for (int i = 0; i < nl && rc == 0; i++) {
        rc = pthread_create(&loops[i].th, NULL, loop_main, &loops[i]);
        loops[i].started = rc == 0;
        started += rc == 0;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    /* The clock starts once every loop is running: a loaded machine can take
     * tens of ms to schedule a new thread, idle time that belongs to no
     * transaction and would otherwise sit inside the window. */
    pthread_mutex_lock(&p->gate_lock);
    if (rc == 0 && wait_ready(p, started) < 0) {
        /* a source's loop is stuck before the gate (a script's
         * thread_init that never returns): the level is left as it is */
        pthread_mutex_unlock(&p->gate_lock);
        *abandoned = 1;
        return NULL;
    }
    p->window_gated = 0;
    p->ramp = pool_ramps(p);
    atomic_store(&p->win.warm, 0);
    if (p->cfg.before_window && ((p->cfg.warmup_s <= 0 && !p->ramp) || rc != 0)) {
        /* no warmup: the loops wait at the start gate until every rank is
         * here, so nothing runs uncounted (with --events the server would
         * see more than N); the loops only sleep on gate_cond meanwhile */
        p->cfg.before_window(p->cfg.before_window_arg);
        p->window_gated = 1;
    }
    p->t0 = now_ns();
    arrivals_start(&p->win.arrivals, p->cfg.rate, p->cfg.seed, p->t0);
    uint64_t warm_end = p->t0 + (uint64_t)(p->cfg.warmup_s * 1e9);
    atomic_store(&p->win.hold_from, p->ramp ? warm_end : 0);
    atomic_store(&p->win.start, warm_end);
    atomic_store(&p->win.end, p->cfg.time_s > 0 ? warm_end + (uint64_t)(p->cfg.time_s * 1e9) : 0);
    /* fixed when the ramp is over and before_window returns (level.c) */
    if ((p->cfg.before_window && !p->window_gated) || p->ramp) {
        atomic_store(&p->win.start, WINDOW_SHUT);
        atomic_store(&p->win.end, 0);
    }
    if (rc != 0) /* the loops that did start find the stop as they pass the gate */
        atomic_store(&p->win.stop, 1);
    p->gate_open = 1;
    pthread_cond_broadcast(&p->gate_cond);
    pthread_mutex_unlock(&p->gate_lock);
    if (rc != 0) {
        snprintf(err, errlen, "cannot start an event loop thread: %s", strerror(rc));
        abort_loops(p, loops, nl);
        free_loops(loops, nl);
        return NULL;
    }
    return loops;
}

int pool_run(struct pool *p, int threads, struct level_result *out)
{
    memset(out, 0, sizeof *out);
    out->threads = threads;
    uint64_t setup0 = now_ns();
    /* stop and stop_at are not cleared here but when a level ends: a
     * pool_stop() that comes between two levels (a signal) ends the next
     * one at once instead of being forgotten. */
    atomic_store(&p->fatal, 0);
    atomic_store(&p->give_up, 0);
    atomic_store(&p->win.end, 0);
    atomic_store(&p->win.completed, 0);
    atomic_store(&p->win.started, 0);
    atomic_store(&p->win.concurrency, 0);
    atomic_store(&p->phase, 0);
    atomic_store(&p->running, 0);
    char err[600];
    if (pool_grow(p, threads, err, sizeof err) < 0) {
        snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", err);
        return -1;
    }
    revive(p, threads);
    out->setup_s = (double)(now_ns() - setup0) / 1e9;
    p->threads = threads;
    int nl = pool_loops(p, threads);
    out->loops = nl;
    int abandoned = 0;
    struct loop *loops = start_loops(p, nl, &abandoned, err, sizeof err);
    if (!loops || level_keep_time(p, loops, nl, out) < 0) {
        /* abandoned: a loop still runs and uses the level; nothing is freed */
        out->abandoned = abandoned || loops != NULL;
        if (!out->abandoned)
            snprintf(out->fatal_msg, sizeof out->fatal_msg, "%s", err);
        return -1;
    }
    level_collect(p, loops, nl, out);
    free_loops(loops, nl);
    out->interrupted = atomic_load(&p->win.stop) != 0 && !atomic_load(&p->fatal);
    atomic_store(&p->win.stop, 0);
    atomic_store(&p->win.stop_at, 0);
    if (out->fatal_msg[0])
        return -1;
    return out->interrupted ? 1 : 0;
}
