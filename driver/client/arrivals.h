/*
 * arrivals.h - --rate's one Poisson stream of arrivals, shared by every
 * connection of a level (client/conn.c asks it for a built-in mix's
 * connections and a script's alike). A connection takes the next arrival whenever it is
 * free, so an arrival goes to the first connection free for it and waits
 * for one when all are busy: one queue served by every connection (M/M/c),
 * as sysbench's event queue is, rather than a queue per connection behind
 * its own slow transaction.
 */
#ifndef DBSCALE_ARRIVALS_H
#define DBSCALE_ARRIVALS_H

#include <pthread.h>
#include <stdint.h>

#include "client/rng.h"

struct arrivals {
    pthread_mutex_t lock;
    double rate; /* arrivals per second */
    uint64_t at; /* the latest handed out, monotonic ns; 0: none yet */
    struct rng rng;
};

void arrivals_init(struct arrivals *a);
void arrivals_destroy(struct arrivals *a);
/* A new stream at rate per second drawn from seed's stream 0 (connections
 * use streams 1..), starting at t0 (0: when the first arrival is taken). */
void arrivals_start(struct arrivals *a, double rate, uint64_t seed, uint64_t t0);
/* The next arrival, monotonic ns; it may be past. */
uint64_t arrivals_next(struct arrivals *a);
/* Arrivals due by now that nobody has taken yet (the queue sysbench
 * reports), counted on a copy of the stream, at most cap. */
uint64_t arrivals_queued(struct arrivals *a, uint64_t now, uint64_t cap);

#endif
