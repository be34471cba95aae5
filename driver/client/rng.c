/*
 * rng.c - xoshiro256** seeded by splitmix64, and the distributions sysbench
 * users know. The distributions follow sysbench's definitions (sb_rand.c) so
 * that the same --rand-type gives the same access skew, which is what decides
 * lock contention and cache hit rates in the database; the generator itself
 * differs (a run is reproducible within dbscale, not bit-for-bit with sysbench).
 */
#include "client/rng.h"

#include <math.h>
#include <string.h>

#include "core/xoshiro.h"

void rng_seed(struct rng *r, uint64_t seed, uint64_t stream)
{
    uint64_t x = seed ^ (stream * 0xd1342543de82ef95ull);
    for (int i = 0; i < 4; i++)
        r->s[i] = xoshiro_splitmix64(&x);
}

uint64_t rng_next(struct rng *r)
{
    return xoshiro_next(r->s);
}

double rng_double(struct rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint32_t rng_uniform(struct rng *r, uint32_t a, uint32_t b)
{
    return a + (uint32_t)(rng_double(r) * ((double)b - a + 1));
}

/* Zipfian by rejection-inversion (Hörmann & Derflinger), as sysbench 1.1
 * does: H is the integral of h(x) = x^-e, written to stay finite at e = 1. */
static double helper_log1p_over(double x)
{
    return fabs(x) > 1e-8 ? log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

static double helper_expm1_over(double x)
{
    return fabs(x) > 1e-8 ? expm1(x) / x : 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

static double zipf_H(double x, double e)
{
    double lx = log(x);
    return helper_expm1_over((1 - e) * lx) * lx;
}

static double zipf_h(double x, double e)
{
    return exp(-e * log(x));
}

static double zipf_Hinv(double x, double e)
{
    double t = x * (1 - e);
    if (t < -1)
        t = -1;
    return exp(helper_log1p_over(t) * x);
}

static uint32_t zipf_draw(const struct rng_dist *d, struct rng *r, uint32_t n)
{
    double e = d->zipf_exp, hn = zipf_H(n + 0.5, e);
    for (;;) {
        double u = hn + rng_double(r) * (d->zipf_h1 - hn);
        double x = zipf_Hinv(u, e);
        uint32_t k = (uint32_t)(x + 0.5);
        if (k < 1)
            k = 1;
        else if (k > n)
            k = n;
        if (k - x <= d->zipf_s || u >= zipf_H(k + 0.5, e) - zipf_h(k, e))
            return k;
    }
}

int rng_dist_init(struct rng_dist *d, const char *kind, unsigned iter, unsigned pct, unsigned res,
                  double pareto_h, double zipf_exp)
{
    memset(d, 0, sizeof *d);
    if (!strcmp(kind, "uniform"))
        d->kind = RNG_UNIFORM;
    else if (!strcmp(kind, "gaussian"))
        d->kind = RNG_GAUSSIAN;
    else if (!strcmp(kind, "special"))
        d->kind = RNG_SPECIAL;
    else if (!strcmp(kind, "pareto"))
        d->kind = RNG_PARETO;
    else if (!strcmp(kind, "zipfian"))
        d->kind = RNG_ZIPFIAN;
    else
        return -1;
    if (iter < 1 || pct > 100 || res >= 100 || pareto_h <= 0 || pareto_h >= 1 || zipf_exp < 0)
        return -1;
    d->iter = iter;
    d->pct = pct;
    d->res = res;
    d->pareto_h = pareto_h;
    d->zipf_exp = zipf_exp;
    d->iter_mult = 1.0 / iter;
    d->pct_mult = pct / 100.0;
    d->pct2_mult = pct / 200.0;
    d->res_mult = 100.0 / (100.0 - res);
    d->pareto_power = log(pareto_h) / log(1.0 - pareto_h);
    d->zipf_s = 2 - zipf_Hinv(zipf_H(2.5, zipf_exp) - zipf_h(2, zipf_exp), zipf_exp);
    d->zipf_h1 = zipf_H(1.5, zipf_exp) - 1;
    return 0;
}

uint32_t rng_dist(const struct rng_dist *d, struct rng *r, uint32_t a, uint32_t b)
{
    double t, sum = 0;
    switch (d->kind) {
    case RNG_UNIFORM:
        return rng_uniform(r, a, b);
    case RNG_GAUSSIAN:
        t = (double)b - a + 1;
        for (unsigned i = 0; i < d->iter; i++)
            sum += rng_double(r) * t;
        return a + (uint32_t)(sum * d->iter_mult);
    case RNG_SPECIAL: {
        /* (100 - res)% of draws are gaussian over [a, b]; res% land uniformly
         * in the pct% "hot" slice at the middle of the range. */
        t = (double)b - a;
        double rnd = rng_double(r);
        if (rnd * t * d->res_mult < t) {
            for (unsigned i = 0; i < d->iter; i++)
                sum += rng_double(r);
            return a + (uint32_t)(sum * t * d->iter_mult);
        }
        double res = rnd * (t * d->pct_mult + 1) + t / 2 - t * d->pct2_mult;
        return a + (uint32_t)res;
    }
    case RNG_PARETO:
        return a + (uint32_t)(((double)b - a + 1) * pow(rng_double(r), d->pareto_power));
    case RNG_ZIPFIAN:
        return a + zipf_draw(d, r, b - a + 1) - 1;
    }
    return a;
}

void rng_str(struct rng *r, const char *tmpl, char *out)
{
    size_t i = 0;
    uint64_t bits = 0;
    int have = 0;
    for (; tmpl[i]; i++) {
        char c = tmpl[i];
        if (c != '#' && c != '@') {
            out[i] = c;
            continue;
        }
        /* One 64-bit draw gives eight 8-bit chunks; a chunk under 250 (or
         * 234) maps evenly onto 10 digits (or 26 letters). */
        for (;;) {
            if (have == 0) {
                bits = rng_next(r);
                have = 8;
            }
            unsigned v = bits & 0xff;
            bits >>= 8;
            have--;
            if (c == '#' && v < 250) {
                out[i] = (char)('0' + v % 10);
                break;
            }
            if (c == '@' && v < 234) {
                out[i] = (char)('a' + v % 26);
                break;
            }
        }
    }
    out[i] = '\0';
}
