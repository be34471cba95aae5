/*
 * plot_summary.h - the statistics table of `dbscale plot`, from the curves:
 * text (what the verb prints), summary.md and summary.csv.
 */
#ifndef DBSCALE_PLOT_SUMMARY_H
#define DBSCALE_PLOT_SUMMARY_H

#include "analysis/curves.h"
#include "core/util.h"

/* The USL table, the points, the peaks and the superlinear points' reasons
 * into txt (terminal), md (summary.md) and csv (summary.csv). */
void plot_summary(const struct curves *cv, struct sbuf *txt, struct sbuf *md, struct sbuf *csv);

#endif
