/*
 * plot.h - scaling graphs from results directories, drawn by gnuplot.
 *
 * `dbscale plot RESULTS_DIR... [--out DIR] [--format png,svg]` (plot_main in
 * verbs/plot_verb.c) writes into DIR a data file per curve, a small generated script
 * per graph that loads the matching graphs/NAME.gp (copied beside it, so a
 * user can edit and re-run `gnuplot NAME.gp` by hand), the images, and the
 * statistics table as summary.md and summary.csv.
 *
 * What is drawn is the model of analysis/curves.h; what is plot's own is
 * below: where it writes, the log axis, the files it wrote.
 */
#ifndef DBSCALE_PLOT_H
#define DBSCALE_PLOT_H

#include "analysis/curves.h"
#include "plot/plot_files.h"

/* One plot run: the curves it draws and gnuplot's own settings. */
struct plot {
    struct curves *cv; /* read by curves_load(); built by plot_make() */
    const char *out;   /* the out directory */
    /* The log y axis: 0 automatic (on when curves differ by more than 10x),
     * 1 on, -1 off. */
    int log_y;
    struct plot_files *written; /* every file written into out, recorded by plot_gp_write */
};

/* Curves (curves_build), summary table (into cv->log->out),
 * summary.md/.csv, data files, scripts and images into p->out (made if
 * missing), in each of formats ("png,svg"); then what an earlier plot left
 * there is removed. 0, or -1 with the reason in cv->log->err (the machine or
 * gnuplot failed). */
int plot_make(struct plot *p, const char *formats);

#endif
