/*
 * plot_gnuplot.h - running gnuplot on one generated script.
 */
#ifndef DBSCALE_PLOT_GNUPLOT_H
#define DBSCALE_PLOT_GNUPLOT_H

#include <stddef.h>

#include "core/util.h"

/* Run gnuplot on script (with fmt set to format) in directory dir, its
 * stderr captured. 0 (what gnuplot said without an error appended to
 * warn), or -1 with gnuplot's complaint in err. */
int plot_gp_run(const char *dir, const char *script, const char *format, struct sbuf *warn,
                char *err, size_t errlen);

#endif
