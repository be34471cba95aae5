/*
 * window_state.h - a level's window as its connections see it while it
 * runs, and the questions they ask it at every event: is the run ending,
 * does an event that ended now count, may one more begin (--events), must
 * this one wait for the others (the ramp). One struct and one set of
 * answers for every connection of a level, a built-in mix's or a
 * script's (client/conn.c, lua/lloop.c). The timing side opens and
 * closes the window and the loops read it, so the shared fields are
 * relaxed atomics; each connection keeps its own flags (warm, reserved,
 * in an event) and passes them in.
 */
#ifndef DBSCALE_WINDOW_STATE_H
#define DBSCALE_WINDOW_STATE_H

#include <stdatomic.h>
#include <stdint.h>

#include "client/arrivals.h"
#include "core/util.h"

#define WS_RLX memory_order_relaxed

/* start while the window has not opened: nothing counts yet */
#define WINDOW_SHUT UINT64_MAX

struct window_state {
    /* the level's settings */
    int64_t events; /* --events, 0 none */
    int paced;      /* --rate: arrivals, and connections inside an event counted */
    /* A script's end rule (sysbench's): an event running at the end still
     * counts when it finishes, and the window closes where the last one
     * ends (level_conn_over, from its loop). Without it (the built-in mixes) one that ends past
     * the end is finished off and not counted. */
    int tail;
    _Atomic int stop;         /* a stop (a signal) or a failure */
    _Atomic uint64_t stop_at; /* when the stop was asked, ns; 0 none */
    _Atomic uint64_t start;   /* ns; WINDOW_SHUT until the window opens */
    /* --time's deadline, or the --events-th completion; 0 while open-ended */
    _Atomic uint64_t end;
    /* the ramp: from here (ns, the warmup's end; 0 no ramp) until the
     * window opens, a connection that has finished an event waits */
    _Atomic uint64_t hold_from;
    _Atomic uint64_t started;    /* --events: events begun in the window */
    _Atomic uint64_t completed;  /* --events: events counted */
    _Atomic int warm;            /* connections that finished an event */
    _Atomic int64_t concurrency; /* --rate: connections inside an event (sysbench's) */
    struct arrivals arrivals;    /* --rate: the one Poisson stream every connection takes from */
};

/* What the window knows of one connection; the connection keeps it and
 * passes it in. */
struct window_conn {
    int warm;     /* finished an event: counted in warm */
    int reserved; /* --events: this event holds one of the N */
    int in_event; /* --rate: counted in concurrency */
};

/* Stop the run now; the stop's time ends the window. Only lock-free
 * atomics and the clock: safe in a signal handler. */
static inline void window_stop(struct window_state *w)
{
    uint64_t zero = 0;
    atomic_compare_exchange_strong(&w->stop_at, &zero, now_ns());
    atomic_store(&w->stop, 1);
}

/* The window's end as known now (--time, --events reached, or a stop), 0
 * while open-ended. */
static inline uint64_t window_end_now(struct window_state *w)
{
    uint64_t e = atomic_load_explicit(&w->end, WS_RLX),
             s = atomic_load_explicit(&w->stop_at, WS_RLX);
    return s && (!e || s < e) ? s : e;
}

/* The run is ending at now: a stop, the end passed, or the --events-th
 * event counted. A connection then begins no more events. */
static inline int window_ending(struct window_state *w, uint64_t now)
{
    uint64_t e = window_end_now(w);
    return atomic_load_explicit(&w->stop, WS_RLX) || (e && now >= e) ||
           (w->events > 0 && atomic_load_explicit(&w->completed, WS_RLX) >= (uint64_t)w->events);
}

/* Is t inside the window (for an event's end, or an error's)? */
static inline int window_counted(struct window_state *w, uint64_t t)
{
    uint64_t e = w->tail ? 0 : window_end_now(w);
    return t >= atomic_load_explicit(&w->start, WS_RLX) && (!e || t <= e);
}

/* The ramp (worker_cfg.ramp_timeout_s), once the warmup is over: a
 * connection that has finished an event waits, polling every
 * WINDOW_RAMP_POLL_NS, until the window opens. Warm backends running on
 * would take the CPU the cold ones need for their first statements: at
 * 1024 connections on 2 CPUs the last few then took longer than the
 * ramp's timeout. */
#define WINDOW_RAMP_POLL_NS 20000000ull

/* Has a run with these settings a ramp? Not with --events or --rate,
 * whose windows open at once (exactly N run; arrivals go to whichever
 * connection is free). */
static inline int window_ramps(double ramp_timeout_s, long long events, double rate)
{
    return ramp_timeout_s > 0 && events <= 0 && rate <= 0;
}
static inline int window_holds(struct window_state *w, const struct window_conn *wc, uint64_t now)
{
    uint64_t from = atomic_load_explicit(&w->hold_from, WS_RLX);
    return wc->warm && from && now >= from &&
           atomic_load_explicit(&w->start, WS_RLX) == WINDOW_SHUT;
}

/* --events, as sysbench counts it: an event begun (at t) inside the window
 * takes one of the N before its first statement, so exactly N begin there
 * and all N are counted; one begun in the warmup takes none and is not
 * counted. 1: run it (*reserved says whether it holds one of the N, which
 * a lost event gives back with window_unreserve); 0: all N are taken (the
 * connection begins no more). */
static inline int window_reserve(struct window_state *w, uint64_t t, struct window_conn *wc)
{
    wc->reserved = 0;
    if (w->events <= 0 || t < atomic_load_explicit(&w->start, WS_RLX))
        return 1;
    if (atomic_fetch_add_explicit(&w->started, 1, WS_RLX) >= (uint64_t)w->events) {
        /* taken back, so a place a lost event gives back can be had again */
        atomic_fetch_sub_explicit(&w->started, 1, WS_RLX);
        return 0;
    }
    wc->reserved = 1;
    return 1;
}

static inline void window_unreserve(struct window_state *w, struct window_conn *wc)
{
    if (wc->reserved) {
        atomic_fetch_sub_explicit(&w->started, 1, WS_RLX);
        wc->reserved = 0;
    }
}

/* The connection finished an event, or has no more to run: the ramp waits
 * for it no longer. */
static inline void window_warm(struct window_state *w, struct window_conn *wc)
{
    if (!wc->warm) {
        wc->warm = 1;
        atomic_fetch_add_explicit(&w->warm, 1, WS_RLX);
    }
}

/* --rate: the connection enters or leaves an event, for sysbench's
 * concurrency figure (a closed loop's connections are always in one). */
static inline void window_enter(struct window_state *w, struct window_conn *wc)
{
    if (w->paced && !wc->in_event) {
        wc->in_event = 1;
        atomic_fetch_add_explicit(&w->concurrency, 1, WS_RLX);
    }
}

static inline void window_leave(struct window_state *w, struct window_conn *wc)
{
    if (wc->in_event) {
        wc->in_event = 0;
        atomic_fetch_sub_explicit(&w->concurrency, 1, WS_RLX);
    }
}

/* An event ended at t (read from the clock just now): the connection is
 * warm, and 1 when the event counts: inside the window and, with
 * --events, one of the N (the N-th ends the window there). */
static inline int window_done(struct window_state *w, struct window_conn *wc, uint64_t t)
{
    window_warm(w, wc);
    if (!window_counted(w, t))
        return 0; /* warmup, ramp, or finished off after the window */
    if (w->events > 0) {
        if (!wc->reserved)
            return 0; /* begun in the warmup */
        wc->reserved = 0;
        uint64_t k = atomic_fetch_add_explicit(&w->completed, 1, WS_RLX);
        if (k >= (uint64_t)w->events)
            return 0;
        if (k + 1 == (uint64_t)w->events) {
            uint64_t zero = 0;
            atomic_compare_exchange_strong(&w->end, &zero, t);
        }
    }
    return 1;
}

/* What a connection free for its next event does, decided in one place
 * for both run-times' connections: */
enum window_next {
    WINDOW_PARK,    /* no more events: the run is ending, or --events' N are taken */
    WINDOW_HOLD,    /* the ramp: ask again at *at */
    WINDOW_ARRIVAL, /* --rate: wait for the arrival at *at, then window_arrived */
    WINDOW_GO,      /* begin the event now; its latency runs from *at */
};

/* The connection is free at now: its next step, and its time in *at. */
static inline enum window_next window_begin(struct window_state *w, struct window_conn *wc,
                                            uint64_t now, uint64_t *at)
{
    if (window_ending(w, now))
        return WINDOW_PARK;
    if (w->paced) {
        *at = arrivals_next(&w->arrivals);
        return WINDOW_ARRIVAL;
    }
    if (window_holds(w, wc, now)) {
        *at = now + WINDOW_RAMP_POLL_NS;
        return WINDOW_HOLD;
    }
    if (!window_reserve(w, now, wc))
        return WINDOW_PARK;
    *at = now;
    return WINDOW_GO;
}

/* --rate: the arrival at `at` that window_begin handed out is due (or the
 * run is ending, which parks): go or park. The event's latency runs from
 * at, so time it queued while every connection was busy counts, as in
 * sysbench; --events' N are taken at the arrival. */
static inline enum window_next window_arrived(struct window_state *w, struct window_conn *wc,
                                              uint64_t now, uint64_t at)
{
    if (window_ending(w, now) || !window_reserve(w, at, wc))
        return WINDOW_PARK;
    window_enter(w, wc);
    return WINDOW_GO;
}

#endif
