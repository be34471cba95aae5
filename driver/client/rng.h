/*
 * rng.h - per-thread pseudo-random numbers and sysbench's distributions.
 *
 * Each client connection owns a struct rng, so drawing a number touches no
 * shared state. Seeded from --rand-seed (and the connection index), a run is
 * reproducible; without a seed, from the clock.
 */
#ifndef DBSCALE_RNG_H
#define DBSCALE_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s[4]; /* xoshiro256** state */
};

enum rng_kind { RNG_UNIFORM, RNG_GAUSSIAN, RNG_SPECIAL, RNG_PARETO, RNG_ZIPFIAN };

/* The --rand-type distribution and its parameters (sysbench's defaults:
 * special, iter 12, pct 1, res 75, pareto h 0.2, zipfian exp 0.8). */
struct rng_dist {
    enum rng_kind kind;
    unsigned iter, pct, res;
    double pareto_h, zipf_exp;
    /* precomputed */
    double iter_mult, pct_mult, pct2_mult, res_mult, pareto_power, zipf_s, zipf_h1;
};

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
double rng_double(struct rng *r); /* uniform in [0, 1) */
/* Uniform integer in [a, b]. */
uint32_t rng_uniform(struct rng *r, uint32_t a, uint32_t b);

/* Set up a distribution by name; -1 for an unknown name or bad parameter. */
int rng_dist_init(struct rng_dist *d, const char *kind, unsigned iter, unsigned pct, unsigned res,
                  double pareto_h, double zipf_exp);
/* A number in [a, b] drawn from d (sysbench's rand.default). */
uint32_t rng_dist(const struct rng_dist *d, struct rng *r, uint32_t a, uint32_t b);

/* Fill out[0..strlen(tmpl)) from a template: '#' a digit, '@' a letter,
 * anything else copied; out is NUL-terminated. */
void rng_str(struct rng *r, const char *tmpl, char *out);

#endif
