/*
 * plot_gp_text.h - the bricks of every generated gnuplot script and data
 * file: inert strings, the x axis over counts, the one writer of files into
 * a plot's out directory.
 */
#ifndef DBSCALE_PLOT_GP_TEXT_H
#define DBSCALE_PLOT_GP_TEXT_H

#include <stddef.h>

#include "analysis/curves.h"
#include "core/util.h"
#include "plot/plot_files.h"

/* Where one plot run writes: its out directory, the record of the files it
 * wrote there (NULL: none kept), and the log its first failure goes to. */
struct plot_out {
    const char *dir;
    struct plot_files *written;
    struct curves_log *log;
};

/* Write b to o->dir/NAME atomically and record NAME in o->written; 0, or
 * -errno with the path and reason in o->log->err (the first failure wins). */
int plot_gp_write(const struct plot_out *o, const char *name, const struct sbuf *b);
/* s as an inert gnuplot string: single-quoted, '' for a quote, control
 * characters as spaces (nothing expands inside single quotes). */
void plot_gp_str(struct sbuf *b, const char *s);
/* x axis variables over a set of counts: tics at the counts (xt), log2
 * (logx) when they span >= 8x, xmin/xmax. */
void plot_gp_xaxis(struct sbuf *b, const double *v, size_t n);

#endif
