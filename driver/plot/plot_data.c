/*
 * plot_data.c - the curves' data files of `dbscale plot`: curveNN.dat (every
 * point's median, spread, speedup, efficiency, latency, ideal and whether
 * the throughput-latency graph labels it) and curveNN-usl.dat (the USL fit,
 * sampled), which the graphs' scripts read.
 *
 * The one idea: a column is a figure of struct curve written out; nothing
 * is computed here that the table or the page would show differently.
 */
#include "plot/plot_data.h"

#include <math.h>
#include <stdlib.h>

#include "plot/plot_gp_text.h"
#include "stats/stats.h"

/* Which points of the throughput-vs-latency graph carry their thread count:
 * greedily, in curve order, a label only where no label already drawn sits
 * within a label's size (as fractions of the axes), so labels of curves that
 * run close together are not printed over each other. lab[i * CURVE_MAXPTS + t]. */
static int *tl_labels(const struct curves *cv)
{
    int *lab = xcalloc(cv->nc * CURVE_MAXPTS + 1, sizeof *lab);
    double xm = 0, ym = 0;
    for (size_t i = 0; i < cv->nc; i++)
        for (size_t t = 0; t < cv->c[i].k; t++) {
            xm = fmax(xm, cv->c[i].p95[t]);
            ym = fmax(ym, cv->c[i].x[t]);
        }
    xm = xm > 0 ? xm : 1, ym = ym > 0 ? ym : 1;
    for (size_t i = 0; i < cv->nc; i++)
        for (size_t t = 0; t < cv->c[i].k; t++) {
            double x = cv->c[i].p95[t] / xm, y = cv->c[i].x[t] / ym;
            int free_ = 1;
            for (size_t j = 0; j <= i && free_; j++)
                for (size_t u = 0; u < cv->c[j].k && free_; u++)
                    if (lab[j * CURVE_MAXPTS + u] && fabs(cv->c[j].p95[u] / xm - x) < 0.04 &&
                        fabs(cv->c[j].x[u] / ym - y) < 0.04)
                        free_ = 0;
            lab[i * CURVE_MAXPTS + t] = free_;
        }
    return lab;
}

int plot_data_write(const struct curves *cv, const struct plot_out *o)
{
    int *lab = tl_labels(cv);
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
        struct sbuf b = {0};
        sbuf_printf(&b,
                    "# %s\n# 1 threads, 2 median tps, 3 min, 4 max, 5 mean, 6 ci95_lo, "
                    "7 ci95_hi, 8 speedup, 9 efficiency (vs 13), 10 p50 ms, 11 p95 ms, "
                    "12 p99 ms, 13 ideal tps (linear up to the server's CPUs, flat after), "
                    "14 repeats, 15 1 = thread count labelled on tput-latency\n",
                    c->label);
        for (size_t t = 0; t < c->k; t++)
            sbuf_printf(&b,
                        "%g %.3f %.3f %.3f %.3f %.3f %.3f %.4f %.4f %.4f %.4f %.4f %.3f %zu %d\n",
                        c->n[t], c->x[t], c->tp[t].min, c->tp[t].max, c->tp[t].mean, c->tp[t].ci_lo,
                        c->tp[t].ci_hi, stats_speedup(c->n, c->x, t), c->eff[t], c->p50[t],
                        c->p95[t], c->p99[t], stats_ideal(c->n, c->x, t, c->cpus), c->tp[t].n,
                        lab[i * CURVE_MAXPTS + t]);
        char name[64];
        snprintf(name, sizeof name, "curve%02zu.dat", i + 1);
        int rc = plot_gp_write(o, name, &b);
        sbuf_free(&b);
        if (rc < 0)
            break;
        if (!c->fit_ok)
            continue;
        sbuf_printf(&b, "# USL fit of %s: lambda %g sigma %g kappa %g R2 %g\n", c->label,
                    c->usl.lambda, c->usl.sigma, c->usl.kappa, c->usl.r2);
        double lo = c->n[0], hi = c->n[c->k - 1];
        for (int s = 0; s <= 120; s++) {
            double n = lo * pow(hi / lo, s / 120.0);
            sbuf_printf(&b, "%.4f %.3f\n", n, stats_usl_eval(&c->usl, n));
        }
        snprintf(name, sizeof name, "curve%02zu-usl.dat", i + 1);
        rc = plot_gp_write(o, name, &b);
        sbuf_free(&b);
        if (rc < 0)
            break;
    }
    free(lab);
    return cv->log->err[0] ? -1 : 0;
}
