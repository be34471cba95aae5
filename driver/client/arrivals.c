/*
 * arrivals.c - --rate's Poisson stream (arrivals.h): exponential gaps drawn
 * from the level's seed under one lock, so the stream is the same whichever
 * connection takes each arrival. Never sleeps: the loops wait for an
 * arrival themselves, as for a reply.
 */
#include "client/arrivals.h"

#include <math.h>

#include "core/util.h"

void arrivals_init(struct arrivals *a)
{
    pthread_mutex_init(&a->lock, NULL);
    a->rate = 0;
    a->at = 0;
}

void arrivals_destroy(struct arrivals *a)
{
    pthread_mutex_destroy(&a->lock);
}

void arrivals_start(struct arrivals *a, double rate, uint64_t seed, uint64_t t0)
{
    pthread_mutex_lock(&a->lock);
    a->rate = rate;
    a->at = t0;
    rng_seed(&a->rng, seed, 0);
    pthread_mutex_unlock(&a->lock);
}

/* The gap to the next arrival, ns. */
static uint64_t gap(struct rng *r, double rate)
{
    return (uint64_t)(-log(1.0 - rng_double(r)) / rate * 1e9);
}

uint64_t arrivals_next(struct arrivals *a)
{
    pthread_mutex_lock(&a->lock);
    if (!a->at)
        a->at = now_ns();
    a->at += gap(&a->rng, a->rate);
    uint64_t t = a->at;
    pthread_mutex_unlock(&a->lock);
    return t;
}

uint64_t arrivals_queued(struct arrivals *a, uint64_t now, uint64_t cap)
{
    uint64_t n = 0;
    pthread_mutex_lock(&a->lock);
    struct rng r = a->rng;
    for (uint64_t t = a->at; n < cap;) {
        t += gap(&r, a->rate);
        if (t > now)
            break;
        n++;
    }
    pthread_mutex_unlock(&a->lock);
    return n;
}
