/*
 * prng.c - xoshiro256** (Blackman and Vigna, 2018) with its state filled by
 * splitmix64, as its authors recommend.
 *
 * The one idea: everything a bootstrap needs from chance is an index below n,
 * drawn with integers only, so the same seed gives the same resamples
 * anywhere. Floating point enters only in stats_rng_unit/normal, which the
 * simulations use. Never reads the clock or the environment for a seed.
 */
#include "stats/prng.h"

#include <math.h>

#include "core/xoshiro.h"

uint64_t stats_rng_splitmix64(uint64_t *x)
{
    return xoshiro_splitmix64(x);
}

void stats_rng_seed(struct stats_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = xoshiro_splitmix64(&seed);
}

uint64_t stats_rng_next(struct stats_rng *r)
{
    return xoshiro_next(r->s);
}

uint64_t stats_rng_below(struct stats_rng *r, uint64_t n)
{
    if (n == 0)
        return 0;
    /* Reject the lowest 2^64 mod n values so every residue is equally likely. */
    uint64_t floor = (0 - n) % n, x;
    do
        x = stats_rng_next(r);
    while (x < floor);
    return x % n;
}

double stats_rng_unit(struct stats_rng *r)
{
    return (double)(stats_rng_next(r) >> 11) * 0x1.0p-53;
}

double stats_rng_normal(struct stats_rng *r)
{
    double u, v, s;
    do {
        u = 2 * stats_rng_unit(r) - 1;
        v = 2 * stats_rng_unit(r) - 1;
        s = u * u + v * v;
    } while (s >= 1 || s == 0);
    return u * sqrt(-2 * log(s) / s);
}
