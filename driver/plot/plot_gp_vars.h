/*
 * plot_gp_vars.h - the graphs that need more than the curves' data files,
 * one file each (plot_gp_NAME.c): the variables their generated NAME.gp
 * sets before it loads graphs/NAME.gp. plot.c calls them in drawing order.
 */
#ifndef DBSCALE_PLOT_GP_VARS_H
#define DBSCALE_PLOT_GP_VARS_H

#include "analysis/curves.h"
#include "core/util.h"
#include "plot/plot_gp_text.h"

/* The kernel series' data files (microNN.dat) and baseline.gp's variables:
 * mfile/mlabel and the panel arrays; *ymax raised to their highest point. 0 or -1. */
int plot_gp_baseline_vars(const struct curves *cv, const struct plot_out *o, struct sbuf *vars,
                          double *ymax);
/* kernel.gp's variables, for results of `micro` or `fs` alone: the kernel
 * series' data files (as plot_gp_baseline_vars) and a panel per test:
 * ntest, tname, tstart, tidx, mwhat, the layout. 0 or -1. */
int plot_gp_kernel_vars(const struct curves *cv, const struct plot_out *o, struct sbuf *vars);
/* timeseries.gp's variables: a panel per level of every directory's
 * intervals.csv (at most PLOT_MAXPANELS, the rest noted in cv->log->out), its
 * data file tsNN.dat (t, tps, p95, errors) and title. The panel count
 * (0: no intervals anywhere), or -1. */
#define PLOT_MAXPANELS 64
int plot_gp_timeseries_vars(const struct curves *cv, const struct plot_out *o, struct sbuf *vars);
/* latency-cdf.gp's variables: per thread count a panel, in it a curve per
 * (directory, variant, CPUs) whose histograms (latency.csv, all repeats
 * added bucket by bucket) give the fraction of transactions at or under
 * each latency; data files cdfNN.dat. The panel count (0: no latency.csv), or -1. */
int plot_gp_latdist_vars(const struct curves *cv, const struct plot_out *o, struct sbuf *vars);
/* cpus.gp's variables (plot_gp_cpus.c): its data files cpusNN.dat, series,
 * dashes and their names, the x axis; *ymax their highest point. The series
 * count (0: fewer than two CPU counts anywhere), or -1. */
int plot_gp_cpus_vars(const struct curves *cv, const struct plot_out *o, struct sbuf *vars,
                      double *ymax);

#endif
