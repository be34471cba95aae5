/*
 * plot.h - scaling graphs from results directories, drawn by gnuplot.
 *
 * `dbscale plot RESULTS_DIR... [--out DIR] [--format png,svg]` (plot_main in
 * verbs.h) writes into DIR a data file per curve, a small generated script
 * per graph that loads the matching graphs/NAME.gp (copied beside it, so a
 * user can edit and re-run `gnuplot NAME.gp` by hand), the images, and the
 * statistics table as summary.md and summary.csv.
 */
#ifndef DBSCALE_PLOT_H
#define DBSCALE_PLOT_H

#include <stddef.h>

#include "util.h"

/* Run gnuplot on script (with fmt set to format) in directory dir, its
 * stderr captured. 0, or -1 with gnuplot's complaint in err. */
int plot_gnuplot(const char *dir, const char *script, const char *format, char *err, size_t errlen);

#endif
