/*
 * plot_gp_kernel.c - the graph of a `dbscale micro` or `dbscale fs` results
 * directory (micro.csv or fs.csv, no results.csv): ops/s against tasks, a
 * panel per test, every (mode, CPU count) series beside its linear line, as
 * will-it-scale's own plots draw it.
 *
 * The one idea: the series are the kernel baseline's (curves_baseline.c) and
 * their data files are the baseline graph's (microNN.dat, whose column 4
 * is the linear line), so the two graphs cannot disagree; this room only
 * groups series into panels by test name.
 *
 * Never compute a figure here, and never let a name reach the script other
 * than through plot_gp_str().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_gp_text.h"
#include "plot/plot_gp_vars.h"

int plot_gp_kernel_vars(const struct curves *cv, const struct plot_out *o, struct sbuf *vars)
{
    double ymax = 0;
    if (plot_gp_baseline_vars(cv, o, vars, &ymax) < 0)
        return -1;
    /* Tests in first-appearance order; per test its series' indices. */
    const char **name = xcalloc(cv->nmc + 1, sizeof *name);
    size_t nt = 0;
    for (size_t j = 0; j < cv->nmc; j++) {
        size_t t = 0;
        while (t < nt && strcmp(name[t], cv->mc[j].test))
            t++;
        if (t == nt)
            name[nt++] = cv->mc[j].test;
    }
    struct sbuf tn = {0}, ts = {0}, ti = {0}, what = {0};
    size_t k = 0;
    for (size_t t = 0; t < nt; t++) {
        sbuf_add(&tn, ", ", t ? 2 : 0);
        plot_gp_str(&tn, name[t]);
        sbuf_printf(&ts, "%s%zu", t ? ", " : "", k + 1);
        for (size_t j = 0; j < cv->nmc; j++)
            if (!strcmp(cv->mc[j].test, name[t]))
                sbuf_printf(&ti, "%s%zu", k++ ? ", " : "", j + 1);
    }
    for (size_t j = 0; j < cv->nmc; j++) {
        sbuf_add(&what, ", ", j ? 2 : 0);
        plot_gp_str(&what, cv->mc[j].what);
    }
    /* Two panels a row; the picture grows with the rows, not the panels shrink. */
    size_t cols = nt > 1 ? 2 : 1, rows = (nt + cols - 1) / cols;
    sbuf_printf(vars,
                "ntest = %zu\narray tname[%zu] = [%s]\narray tstart[%zu] = [%s, %zu]\n"
                "array tidx[%zu] = [%s]\narray mwhat[%zu] = [%s]\nncols = %zu\nnrows = %zu\n"
                "height = %zu\n",
                nt, nt ? nt : 1, nt ? tn.s : "''", nt + 1, nt ? ts.s : "1", k + 1, k ? k : 1,
                k ? ti.s : "0", cv->nmc ? cv->nmc : 1, cv->nmc ? what.s : "''", cols, rows,
                rows > 2 ? rows * 350 : 700);
    sbuf_free(&tn), sbuf_free(&ts), sbuf_free(&ti), sbuf_free(&what);
    free(name);
    return 0;
}
