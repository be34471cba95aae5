/*
 * report_sweep.h - the table a sweep prints at its end, from its result rows
 * (the report of one run is report_run.h).
 */
#ifndef DBSCALE_REPORT_SWEEP_H
#define DBSCALE_REPORT_SWEEP_H

#include <stdio.h>

#include "results/results.h"

/* The end-of-sweep table: per variant and CPU count, per thread count the
 * median TPS with its spread over repeats, p95, speedup over the first
 * thread count, efficiency against the ideal that is linear up to the
 * server's CPUs and flat after, and speedup / CPU efficiency over the
 * fewest-CPUs variant; then the peak (with p95), the drop from it at the
 * highest thread count, and the peak against the fewest-CPUs variant's. */
void report_sweep_summary(FILE *f, const struct result_row *rows, size_t n);

#endif
