/*
 * boot.c - the seeded percentile bootstrap (see boot.h).
 *
 * The one idea: the only chance in a resample is which repeat of a group is
 * drawn, an integer from stats/prng.h, so a seed fixes every resample, and
 * everything computed from them, on any machine. The statistic is a
 * callback computing all its outputs from one resample, so a curve's peak,
 * knee and USL fit move together, as they do in the data.
 *
 * Never allocates per resample (one buffer for all groups), and never lets an
 * undefined output (NAN) into an interval.
 */
#include "stats/boot.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "stats/prng.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_percentile_interval(double *v, size_t m, double conf, double *lo, double *hi)
{
    if (m == 0) {
        *lo = *hi = NAN;
        return;
    }
    qsort(v, m, sizeof *v, cmp_double);
    double tail = (double)m * (1 - conf) / 2;
    size_t j = tail > 1 ? (size_t)ceil(tail - 1e-9) : 1; /* 1000 x 0.025 is 25, not 26 */
    if (j > (m + 1) / 2)
        j = (m + 1) / 2;
    *lo = v[j - 1];
    *hi = v[m - j];
}

int stats_boot(const double *const *x, const size_t *n, size_t k, stats_boot_fn fn, void *ctx,
               size_t nout, const struct stats_boot_opt *o, struct stats_interval *ci,
               double *draws)
{
    if (k == 0 || nout == 0)
        return -1;
    size_t total = 0, min_n = n[0];
    for (size_t g = 0; g < k; g++) {
        if (n[g] == 0)
            return -1;
        total += n[g];
        if (n[g] < min_n)
            min_n = n[g];
    }
    size_t reps = o && o->reps ? o->reps : 1000;
    double conf = o && o->conf > 0 && o->conf < 1 ? o->conf : 0.95;
    struct stats_rng rng;
    stats_rng_seed(&rng, o ? o->seed : 0);

    double *buf = xmalloc(total * sizeof *buf);
    const double **grp = xmalloc(k * sizeof *grp);
    double *out = xmalloc(nout * sizeof *out);
    double *all = draws ? draws : xmalloc(reps * nout * sizeof *all);
    double *col = xmalloc(reps * sizeof *col);

    for (size_t j = 0; j < nout; j++)
        out[j] = NAN;
    if (fn(x, n, k, ctx, out) < 0)
        for (size_t j = 0; j < nout; j++)
            out[j] = NAN;
    for (size_t j = 0; j < nout; j++)
        ci[j] = (struct stats_interval){.est = out[j], .reps = reps, .min_n = min_n};

    for (size_t r = 0; r < reps; r++) {
        double *p = buf;
        for (size_t g = 0; g < k; g++) {
            for (size_t i = 0; i < n[g]; i++)
                p[i] = n[g] == 1 ? x[g][0] : x[g][stats_rng_below(&rng, n[g])];
            grp[g] = p;
            p += n[g];
        }
        double *row = all + r * nout;
        for (size_t j = 0; j < nout; j++)
            row[j] = NAN;
        if (fn(grp, n, k, ctx, row) < 0)
            for (size_t j = 0; j < nout; j++)
                row[j] = NAN;
    }
    for (size_t j = 0; j < nout; j++) {
        size_t m = 0;
        for (size_t r = 0; r < reps; r++)
            if (!isnan(all[r * nout + j]))
                col[m++] = all[r * nout + j];
        ci[j].valid = m;
        stats_percentile_interval(col, m, conf, &ci[j].lo, &ci[j].hi);
    }
    free(col);
    if (!draws)
        free(all);
    free(out);
    free(grp);
    free(buf);
    return 0;
}
