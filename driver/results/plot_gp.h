/*
 * plot_gp.h - the gnuplot side of `dbscale plot`: data files, generated
 * scripts and pictures from the curves in a struct plot (plot.h).
 */
#ifndef DBSCALE_PLOT_GP_H
#define DBSCALE_PLOT_GP_H

#include <stddef.h>

#include "results/plot.h"
#include "core/util.h"

/* Write b to p->out/NAME atomically and record NAME in p->written; 0, or
 * -errno with the path and reason in p->log->err. */
int plot_gp_write(const struct plot *p, const char *name, const struct sbuf *b);
/* The curves' data files into p->out: curveNN.dat, and curveNN-usl.dat for
 * each curve with a USL fit. 0 or -1. */
int plot_gp_data(const struct plot *p);
/* Every graph the curves allow, each in every format of formats ("png,svg"):
 * the scripts copied and generated into p->out, gnuplot run, each image
 * checked and its path logged ("graph: PATH" in p->log->out). 0, or -1 with
 * the reason in p->log->err. */
int plot_gp_graphs(const struct plot *p, const char *formats);
/* s as an inert gnuplot string: single-quoted, '' for a quote, control
 * characters as spaces (nothing expands inside single quotes). */
void plot_gp_str(struct sbuf *b, const char *s);
/* The kernel series' data files (microNN.dat) and baseline.gp's variables:
 * mfile/mlabel and the panel arrays; *ymax raised to their highest point. 0 or -1. */
int plot_gp_baseline_vars(const struct plot *p, struct sbuf *vars, double *ymax);
/* kernel.gp's variables, for results of `micro` or `fs` alone: the kernel
 * series' data files (as plot_gp_baseline_vars) and a panel per test:
 * ntest, tname, tstart, tidx, mwhat, the layout. 0 or -1. */
int plot_gp_kernel_vars(const struct plot *p, struct sbuf *vars);
/* timeseries.gp's variables: a panel per level of every directory's
 * intervals.csv (at most PLOT_MAXPANELS, the rest noted in p->log->out), its
 * data file tsNN.dat (t, tps, p95, errors) and title. The panel count
 * (0: no intervals anywhere), or -1. */
#define PLOT_MAXPANELS 64
int plot_gp_timeseries_vars(const struct plot *p, struct sbuf *vars);
/* latency-cdf.gp's variables: per thread count a panel, in it a curve per
 * (directory, variant, CPUs) whose histograms (latency.csv, all repeats
 * added bucket by bucket) give the fraction of transactions at or under
 * each latency; data files cdfNN.dat. The panel count (0: no latency.csv), or -1. */
int plot_gp_latdist_vars(const struct plot *p, struct sbuf *vars);
/* x axis variables over a set of counts: tics at the counts (xt), log2
 * (logx) when they span >= 8x, xmin/xmax. */
void plot_gp_xaxis(struct sbuf *b, const double *v, size_t n);
/* cpus.gp's variables (plot_gp_cpus.c): its data files cpusNN.dat, series,
 * dashes and their names, the x axis; *ymax their highest point. The series
 * count (0: fewer than two CPU counts anywhere), or -1. */
int plot_gp_cpus_vars(const struct plot *p, struct sbuf *vars, double *ymax);
/* Run gnuplot on script (with fmt set to format) in directory dir, its
 * stderr captured. 0 (what gnuplot said without an error appended to
 * warn), or -1 with gnuplot's complaint in err. */
int plot_gp_run(const char *dir, const char *script, const char *format, struct sbuf *warn,
                char *err, size_t errlen);

#endif
