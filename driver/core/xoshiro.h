/*
 * xoshiro.h - xoshiro256** (Blackman and Vigna, 2018) and splitmix64, the
 * one generator under both the client's random numbers (client/rng.c) and
 * the statistics' seeded draws (stats/prng.c): inline, so the client's hot
 * path pays no call for it.
 */
#ifndef DBSCALE_XOSHIRO_H
#define DBSCALE_XOSHIRO_H

#include <stdint.h>

/* One step of splitmix64 on *x: how a seed fills the 256-bit state. */
static inline uint64_t xoshiro_splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline uint64_t xoshiro_rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* The next 64 bits of state s[4], which it advances. */
static inline uint64_t xoshiro_next(uint64_t s[4])
{
    uint64_t out = xoshiro_rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = xoshiro_rotl(s[3], 45);
    return out;
}

#endif
