/*
 * plot_data.h - the curves' data files behind the graphs of `dbscale plot`.
 */
#ifndef DBSCALE_PLOT_DATA_H
#define DBSCALE_PLOT_DATA_H

#include "analysis/curves.h"
#include "plot/plot_gp_text.h"

/* curveNN.dat for every curve, and curveNN-usl.dat for each curve with a
 * USL fit, into o's directory. 0 or -1 (the reason in o->log->err). */
int plot_data_write(const struct curves *cv, const struct plot_out *o);

#endif
