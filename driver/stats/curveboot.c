/*
 * curveboot.c - a curve's peak, knee, USL and efficiency with bootstrap
 * intervals (see curveboot.h).
 *
 * The one idea: reduce every resample to the curve a reader sees (one centre
 * per thread count) and ask it the same questions stats.c asks the measured
 * curve. Discrete answers (where the peak is) are kept as thread counts, and
 * their spread over resamples is the set of counts the peak took.
 *
 * Never fits or reads a resample that stats.c would refuse: an undefined knee
 * or a USL fit that says nothing counts as invalid, not as 0.
 */
#include "stats/curveboot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/stats.h"

enum { OUT_PEAK, OUT_PEAK_N, OUT_KNEE_N, OUT_SIGMA, OUT_KAPPA, OUT_EFF, OUT_N };

struct curve_ctx {
    const struct stats_curve *c, *c2; /* c2: the second curve of a ratio */
    double *centre;                   /* k (+ k2) centres */
    double *scratch;                  /* the largest point's repeats, for the median */
};

static double centre(const double *x, size_t n, int median, double *scratch)
{
    if (!median)
        return stats_mean(x, n);
    /* Insertion sort: a point has a handful of repeats. */
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        for (; j > 0 && scratch[j - 1] > x[i]; j--)
            scratch[j] = scratch[j - 1];
        scratch[j] = x[i];
    }
    return n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
}

static void centres(const struct stats_curve *c, const double *const *x, const size_t *n,
                    double *out, double *scratch)
{
    for (size_t i = 0; i < c->k; i++)
        out[i] = centre(x[i], n[i], c->median, scratch);
}

static int curve_stat(const double *const *x, const size_t *n, size_t k, void *ctx, double *out)
{
    struct curve_ctx *cc = ctx;
    const struct stats_curve *c = cc->c;
    (void)k;
    double *m = cc->centre;
    centres(c, x, n, m, cc->scratch);
    size_t p = stats_peak(m, c->k);
    out[OUT_PEAK] = m[p];
    out[OUT_PEAK_N] = c->n[p];
    size_t knee = stats_knee(c->n, m, c->k);
    out[OUT_KNEE_N] = knee < c->k ? c->n[knee] : NAN;
    struct stats_usl u;
    char why[64];
    if (stats_usl_fit(c->n, m, c->k, &u) == 0 && stats_usl_meaningful(&u, c->k, why, sizeof why)) {
        out[OUT_SIGMA] = u.sigma;
        out[OUT_KAPPA] = u.kappa;
    }
    double eff = stats_efficiency_cpus(c->n, m, p, c->cpus);
    out[OUT_EFF] = eff > 0 ? eff : NAN;
    return 0;
}

static int curve_ok(const struct stats_curve *c)
{
    if (!c || c->k == 0)
        return 0;
    for (size_t i = 0; i < c->k; i++)
        if (c->nx[i] == 0)
            return 0;
    return 1;
}

static size_t most_repeats(const struct stats_curve *c)
{
    size_t m = 1;
    for (size_t i = 0; i < c->k; i++)
        if (c->nx[i] > m)
            m = c->nx[i];
    return m;
}

/* Fraction of the resamples whose output column col equals n[i], per point. */
static void shares(const double *draws, size_t reps, size_t col, const struct stats_curve *c,
                   double *share)
{
    for (size_t i = 0; i < c->k; i++) {
        size_t hits = 0;
        for (size_t r = 0; r < reps; r++)
            hits += draws[r * OUT_N + col] == c->n[i];
        share[i] = (double)hits / (double)reps;
    }
}

int stats_curve_boot(const struct stats_curve *c, const struct stats_boot_opt *o,
                     struct stats_curve_ci *ci, double *peak_share, double *knee_share)
{
    if (!curve_ok(c))
        return -1;
    size_t reps = o && o->reps ? o->reps : 1000;
    struct curve_ctx cc = {.c = c};
    cc.centre = xmalloc(c->k * sizeof *cc.centre);
    cc.scratch = xmalloc(most_repeats(c) * sizeof *cc.scratch);
    double *draws = peak_share || knee_share ? xmalloc(reps * OUT_N * sizeof *draws) : NULL;
    struct stats_interval iv[OUT_N];
    int rc = stats_boot(c->x, c->nx, c->k, curve_stat, &cc, OUT_N, o, iv, draws);
    if (rc == 0) {
        ci->peak = iv[OUT_PEAK];
        ci->peak_n = iv[OUT_PEAK_N];
        ci->knee_n = iv[OUT_KNEE_N];
        ci->sigma = iv[OUT_SIGMA];
        ci->kappa = iv[OUT_KAPPA];
        ci->eff = iv[OUT_EFF];
        if (peak_share)
            shares(draws, reps, OUT_PEAK_N, c, peak_share);
        if (knee_share)
            shares(draws, reps, OUT_KNEE_N, c, knee_share);
    }
    free(draws);
    free(cc.scratch);
    free(cc.centre);
    return rc;
}

static int ratio_stat(const double *const *x, const size_t *n, size_t k, void *ctx, double *out)
{
    struct curve_ctx *cc = ctx;
    const struct stats_curve *a = cc->c, *b = cc->c2;
    (void)k;
    double *ma = cc->centre, *mb = cc->centre + a->k;
    centres(a, x, n, ma, cc->scratch);
    centres(b, x + a->k, n + a->k, mb, cc->scratch);
    double pa = ma[stats_peak(ma, a->k)], pb = mb[stats_peak(mb, b->k)];
    out[0] = pa > 0 ? pb / pa - 1 : NAN;
    return 0;
}

int stats_peak_ratio_boot(const struct stats_curve *a, const struct stats_curve *b,
                          const struct stats_boot_opt *o, struct stats_interval *ci)
{
    if (!curve_ok(a) || !curve_ok(b))
        return -1;
    size_t k = a->k + b->k;
    const double **x = xmalloc(k * sizeof *x);
    size_t *n = xmalloc(k * sizeof *n);
    for (size_t i = 0; i < k; i++) {
        x[i] = i < a->k ? a->x[i] : b->x[i - a->k];
        n[i] = i < a->k ? a->nx[i] : b->nx[i - a->k];
    }
    size_t ra = most_repeats(a), rb = most_repeats(b);
    struct curve_ctx cc = {.c = a, .c2 = b};
    cc.centre = xmalloc(k * sizeof *cc.centre);
    cc.scratch = xmalloc((ra > rb ? ra : rb) * sizeof *cc.scratch);
    int rc = stats_boot(x, n, k, ratio_stat, &cc, 1, o, ci, NULL);
    free(cc.scratch);
    free(cc.centre);
    free(n);
    free(x);
    return rc;
}
