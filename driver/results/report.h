/*
 * report.h - the human face of results: the end-of-sweep table here, the
 * report of one run in report_run.h (included, so callers need one header).
 */
#ifndef DBSCALE_REPORT_H
#define DBSCALE_REPORT_H

#include <stdio.h>

#include "report_run.h"
#include "results.h"

/* The end-of-sweep table: per variant and CPU count, per thread count the
 * median TPS with its spread over repeats, speedup over the first thread
 * count, efficiency; then the peak, where it peaks, and the drop from the
 * peak at the highest thread count. */
void report_sweep_summary(FILE *f, const struct result_row *rows, size_t n);

#endif
