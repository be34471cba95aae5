/*
 * loop.c - an event-loop thread that drives a fixed set of connections.
 *
 * The loop waits on all its connections' sockets with one epoll and on the
 * earliest of their timers (Poisson arrivals, reconnect back-offs, the
 * window's end); whatever became ready is handed to conn_advance(), which
 * runs that connection until it must wait again. Per statement the client
 * makes one send and one receive, and the wait is shared by every
 * connection that became ready together, which is where a loop saves CPU
 * over a thread per connection.
 *
 * A level ends on time: once the grace after the window's end or a stop
 * has passed (the first loop to see it raises give_up for all),
 * connections still waiting for a reply are dropped, so a hung server
 * cannot hold the loop. The same loop carries a script's connections
 * (lua/lloop.c), whose statements come from a source (conn_source); the
 * source's code runs before the start gate and after loop_run too.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include "client/evloop.h"
#include "client/pool_internal.h"
#include "core/sched_policy.h"
#include "core/util.h"

/* Timers due: advance them. Returns the earliest timer still pending. When
 * the level is ending every timer is advanced, so its connection parks. */
static uint64_t run_timers(struct loop *l, uint64_t now, int ending)
{
    uint64_t next = UINT64_MAX;
    for (int i = 0; i < l->n && l->timers > 0; i++) {
        struct conn *c = l->conns[i];
        if (!c->on_timer)
            continue;
        if (ending || c->wake_at <= now) {
            conn_advance(l, c, now);
            now = now_ns(); /* a reconnect may have taken a while */
        }
        if (c->on_timer && c->wake_at < next)
            next = c->wake_at;
    }
    return next;
}

/* Resume the connections that yielded between transactions. */
static void run_ready(struct loop *l, uint64_t now)
{
    for (int i = 0; i < l->n && l->runnable > 0; i++) {
        struct conn *c = l->conns[i];
        if (!c->runnable)
            continue;
        c->runnable = 0;
        l->runnable--;
        conn_advance(l, c, now);
    }
}

void loop_kick(struct loop *l)
{
    uint64_t one = 1;
    if (l->kick >= 0 && write(l->kick, &one, sizeof one) < 0)
        return; /* full (it never is: one kick a level); the poll still comes */
}

/* The window opened after the ramp (loop_kick): the connections it held
 * on their poll timers (CS_BEGIN) are due now. Without it each sat up to
 * WINDOW_RAMP_POLL_NS idle inside the window: 20 ms at 1 thread, 2% of a
 * 1 s level counted as time without transactions. */
static void kicked(struct loop *l, uint64_t now)
{
    uint64_t v;
    if (read(l->kick, &v, sizeof v) < 0)
        return;
    for (int i = 0; i < l->n; i++) {
        struct conn *c = l->conns[i];
        if (c->on_timer && c->st == CS_BEGIN)
            c->wake_at = now;
    }
}

/* The tick fired (client/evloop.h): read its count so that it waits for
 * the next; the round that follows looks at the clock. */
static void ticked(struct loop *l)
{
    uint64_t v;
    if (read(l->tick, &v, sizeof v) < 0)
        return; /* nothing new (only this loop reads it): the round looks anyway */
}

void *loop_main(void *arg)
{
    struct loop *l = arg;
    struct pool *p = l->pool;
    if (p->client_ncpus)
        pthread_setaffinity_np(pthread_self(), p->client_set.size, p->client_set.set);
    sched_policy_apply_loop(p->cfg.batch_from, l->n);
    if (p->src && p->src->loop_begin)
        p->src->loop_begin(l); /* a script's thread_init, before any event */
    /* the start gate (worker.c start_loops): wait until every loop runs and the clock is set */
    pthread_mutex_lock(&p->gate_lock);
    p->gate_ready++;
    pthread_cond_broadcast(&p->gate_cond);
    while (!p->gate_open)
        pthread_cond_wait(&p->gate_cond, &p->gate_lock);
    pthread_mutex_unlock(&p->gate_lock);
    loop_run(l);
    if (p->src && p->src->loop_end)
        p->src->loop_end(l); /* a script's thread_done and teardown */
    return NULL;
}

/* After the window's end, how long a reply may still take: the
 * --forced-shutdown grace, never more than 1 s after a stop. */
static uint64_t give_up_at(struct pool *p)
{
    uint64_t e = window_end_now(&p->win);
    if (!e)
        return UINT64_MAX;
    uint64_t g = evloop_grace_ns(p->cfg.grace_s, atomic_load_explicit(&p->win.stop_at, RLX) != 0);
    return g >= EVLOOP_NO_LIMIT ? UINT64_MAX : e + g;
}

void loop_run(struct loop *l)
{
    struct pool *p = l->pool;
    uint64_t now = now_ns();
    l->active = l->n;
    l->stall.progress_at = now;
    for (int i = 0; i < l->n; i++) {
        struct conn *c = l->conns[i];
        atomic_store_explicit(&c->events, 0, RLX);
        atomic_store_explicit(&c->busy_ns, 0, RLX);
        c->wc.in_event = 0;
        c->on_timer = 0;
        c->runnable = 0;
        c->rolling_back = 0;
        c->wc.warm = 0;
        if (p->src) {
            c->st = CS_SOURCE; /* its code starts its run */
            c->answer = 0;
        } else if (c->db) {
            c->st = CS_BEGIN;
        } else {
            /* still down from an earlier level: the outage keeps its start,
             * so --reconnect-timeout counts across levels */
            c->st = CS_DOWN;
            c->wake_at = now;
        }
        conn_advance(l, c, now);
        if (atomic_load_explicit(&p->fatal, RLX))
            return;
    }
    struct epoll_event evs[64];
    int tail_done = 0;
    while (l->active > 0) {
        now = now_ns();
        int end = window_ending(&p->win, now);
        if (end && !tail_done) {
            /* a stall that lasts to the window's end counts too */
            tail_done = 1;
            window_stall_ended(&l->stall, now, &p->win);
        }
        uint64_t give_up = give_up_at(p);
        if (now >= give_up)
            atomic_store_explicit(&p->give_up, 1, RLX);
        if (atomic_load_explicit(&p->give_up, RLX)) {
            conn_give_up_all(l);
            break;
        }
        uint64_t wake = l->timers ? run_timers(l, now, end) : UINT64_MAX;
        if (l->active <= 0 || atomic_load_explicit(&p->fatal, RLX))
            break;
        uint64_t e = window_end_now(&p->win);
        if (e && e > now && e < wake)
            wake = e;
        if (give_up < wake)
            wake = give_up;
        /* a stop or give-up is noticed within a tick even when nothing moves */
        uint64_t ns = l->runnable ? 0 : evloop_wait_ns(now, wake, l->tick >= 0);
        int n = evloop_wait(l->ep, evs, 64, ns);
        if (n < 0 && errno != EINTR) {
            loop_fail(l, strerror(errno));
            break;
        }
        now = now_ns();
        for (int i = 0; i < n; i++) {
            if (evs[i].data.ptr == l) { /* the kick: the timers run next round */
                kicked(l, now);
                continue;
            }
            if (evs[i].data.ptr == &l->tick) { /* a look around, next round */
                ticked(l);
                continue;
            }
            struct conn *c = evs[i].data.ptr;
            if (c->st == CS_WAIT)
                conn_advance(l, c, now);
        }
        if (l->runnable)
            run_ready(l, now);
        if (atomic_load_explicit(&p->fatal, RLX))
            break;
    }
}
