/*
 * report.h - the human (and machine) face of one measured level.
 * Layout follows sysbench's report so its users find every figure where they
 * expect it; dbscale adds p50/p99 and the client's own CPU per transaction.
 */
#ifndef DBSCALE_REPORT_H
#define DBSCALE_REPORT_H

#include <stdio.h>

#include "results.h"
#include "worker.h"

/* pcts: percentiles to print (e.g. {95}); the report always adds 50, 95, 99. */
void report_text(FILE *f, const struct level_result *r, const double *pcts, int npcts);
void report_json(FILE *f, const struct level_result *r, const double *pcts, int npcts);
void report_csv(FILE *f, const struct level_result *r, int header);

/* The end-of-sweep table: per variant and CPU count, per thread count the
 * median TPS with its spread over repeats, p95, speedup over the first
 * thread count, efficiency against the ideal that is linear up to the
 * server's CPUs and flat after, and speedup / CPU efficiency over the
 * fewest-CPUs variant; then the peak (with p95), the drop from it at the
 * highest thread count, and the peak against the fewest-CPUs variant's. */
void report_sweep_summary(FILE *f, const struct result_row *rows, size_t n);

/* The --report-interval line, in sysbench's layout; arg is the FILE *. */
void report_interval(const struct interval_stats *st, void *arg);

/* Client CPU (user + sys) per transaction in microseconds; 0 if none. */
double report_cpu_per_txn_us(const struct level_result *r);
/* "40P01:3;1213:2" */
void report_codes(const struct level_result *r, char *buf, size_t len);

#endif
