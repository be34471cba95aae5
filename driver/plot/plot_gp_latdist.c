/*
 * plot_gp_latdist.c - the latency distributions of `dbscale plot`: per
 * client thread count a panel, in it the cumulative distribution (fraction
 * of transactions at or under a latency) of each (directory, variant, CPUs),
 * from latency.csv's histogram buckets.
 *
 * The one idea: repeats are merged by adding bucket counts, which is exact
 * (percentiles of repeats could not be merged), so a curve is the true
 * distribution of every transaction measured at that thread count.
 *
 * Never compute a percentile of percentiles, and never let a name reach the
 * script other than through plot_gp_str().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_gp_text.h"
#include "plot/plot_gp_vars.h"

struct bref {
    const struct latcsv_row *r;
    size_t dir;
};

static int cmp_series(const struct bref *a, const struct bref *b)
{
    if (a->r->threads != b->r->threads)
        return a->r->threads < b->r->threads ? -1 : 1;
    if (a->dir != b->dir)
        return a->dir < b->dir ? -1 : 1;
    int c = strcmp(a->r->variant, b->r->variant);
    if (c)
        return c;
    return (a->r->cpus > b->r->cpus) - (a->r->cpus < b->r->cpus);
}

static int cmp_bref(const void *pa, const void *pb)
{
    const struct bref *a = pa, *b = pb;
    int c = cmp_series(a, b);
    if (c)
        return c;
    return (a->r->lo_ms > b->r->lo_ms) - (a->r->lo_ms < b->r->lo_ms);
}

int plot_gp_latdist_vars(const struct curves *cv, const struct plot_out *o, struct sbuf *vars)
{
    size_t n = 0;
    for (size_t d = 0; d < cv->ndirs; d++)
        n += cv->dirs[d].lat.n;
    if (n == 0)
        return 0;
    struct bref *ref = xcalloc(n, sizeof *ref);
    size_t k = 0;
    for (size_t d = 0; d < cv->ndirs; d++)
        for (size_t i = 0; i < cv->dirs[d].lat.n; i++)
            ref[k++] = (struct bref){&cv->dirs[d].lat.rows[i], d};
    qsort(ref, n, sizeof *ref, cmp_bref);
    struct sbuf files = {0}, labels = {0}, pth = {0}, pstart = {0};
    size_t ns = 0, np = 0;
    int last_th = -1, rc = 0;
    double xlo = INFINITY, xhi = 0;
    for (size_t i = 0, j; i < n && rc == 0; i = j) {
        double total = 0;
        for (j = i; j < n && !cmp_series(&ref[i], &ref[j]); j++)
            total += (double)ref[j].r->count;
        const struct latcsv_row *r0 = ref[i].r;
        if (r0->threads != last_th) { /* a new panel */
            last_th = r0->threads;
            sbuf_printf(&pth, "%s%d", np ? ", " : "", last_th);
            sbuf_printf(&pstart, "%s%zu", np ? ", " : "", ns + 1);
            np++;
        }
        struct sbuf b = {0};
        sbuf_printf(&b,
                    "# %s %s, %d CPUs, %d threads: %.0f transactions\n"
                    "# 1 latency ms (bucket top), 2 fraction at or under it\n",
                    cv->dirs[ref[i].dir].name, r0->variant, r0->cpus, r0->threads, total);
        double cum = 0;
        for (size_t u = i; u < j; u++) {
            /* buckets of repeats with the same bounds follow each other: one point */
            cum += (double)ref[u].r->count;
            if (u + 1 < j && ref[u + 1].r->lo_ms == ref[u].r->lo_ms)
                continue;
            sbuf_printf(&b, "%.6f %.6f\n", ref[u].r->hi_ms, total > 0 ? cum / total : 0);
            if (ref[u].r->hi_ms > 0)
                xlo = fmin(xlo, ref[u].r->hi_ms);
            xhi = fmax(xhi, ref[u].r->hi_ms);
        }
        char name[32], label[200];
        snprintf(name, sizeof name, "cdf%02zu.dat", ++ns);
        rc = plot_gp_write(o, name, &b);
        sbuf_free(&b);
        snprintf(label, sizeof label, "%s%s%s, %d CPU%s",
                 cv->ndirs > 1 ? cv->dirs[ref[i].dir].name : "", cv->ndirs > 1 ? ": " : "",
                 r0->variant, r0->cpus, r0->cpus == 1 ? "" : "s");
        sbuf_printf(&files, "%s\"%s\"", ns > 1 ? ", " : "", name);
        sbuf_add(&labels, ", ", ns > 1 ? 2 : 0);
        plot_gp_str(&labels, label);
    }
    if (rc == 0) {
        size_t cols = np > 1 ? 2 : 1, rows = (np + cols - 1) / cols;
        sbuf_printf(vars,
                    "ncdf = %zu\narray cdffile[%zu] = [%s]\narray cdflabel[%zu] = [%s]\n"
                    "npanel = %zu\narray pthreads[%zu] = [%s]\narray pstart[%zu] = [%s, %zu]\n"
                    "ncols = %zu\nnrows = %zu\nxmin = %g\nxmax = %g\nheight = %zu\n",
                    ns, ns, files.s, ns, labels.s, np, np, pth.s, np + 1, pstart.s, ns + 1, cols,
                    rows, isfinite(xlo) ? xlo / 1.2 : 0.001, xhi > 0 ? xhi * 1.2 : 1,
                    rows > 2 ? rows * 350 : 700);
    }
    sbuf_free(&files), sbuf_free(&labels), sbuf_free(&pth), sbuf_free(&pstart);
    free(ref);
    return rc < 0 ? -1 : (int)np;
}
