/*
 * prng.h - the statistics' own small random generator: xoshiro256** seeded
 * through splitmix64, so a bootstrap (and a simulated test) draws the same
 * numbers from the same seed on every machine, byte for byte.
 *
 * Integer arithmetic only up to stats_rng_below, which is exact (no modulo
 * bias). Not for cryptography, not shared between threads, and not the
 * clients' generator (client/rng.h decides which rows they hit).
 */
#ifndef DBSCALE_STATS_PRNG_H
#define DBSCALE_STATS_PRNG_H

#include <stdint.h>

struct stats_rng {
    uint64_t s[4];
};

/* Any seed, 0 included: splitmix64 spreads it over the 256-bit state. */
void stats_rng_seed(struct stats_rng *r, uint64_t seed);
uint64_t stats_rng_next(struct stats_rng *r);
/* Uniform in [0, n), n >= 1, unbiased (rejection); 0 when n == 0. */
uint64_t stats_rng_below(struct stats_rng *r, uint64_t n);
/* Uniform in [0, 1) with 53 random bits. */
double stats_rng_unit(struct stats_rng *r);
/* Standard normal (Marsaglia's polar method); for simulations, not resampling. */
double stats_rng_normal(struct stats_rng *r);
/* One step of splitmix64 on *x (public for the reference-value test). */
uint64_t stats_rng_splitmix64(uint64_t *x);

#endif
