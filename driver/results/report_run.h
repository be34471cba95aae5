/*
 * report_run.h - the report of one run: sysbench's layout, so its users find
 * every figure where they expect it, plus JSON/CSV of the same figures.
 */
#ifndef DBSCALE_REPORT_RUN_H
#define DBSCALE_REPORT_RUN_H

#include <stdio.h>

#include "worker.h"

/* pcts: percentiles to print (e.g. {95}); the report always adds 50, 95, 99. */
void report_text(FILE *f, const struct level_result *r, const double *pcts, int npcts);
void report_json(FILE *f, const struct level_result *r, const double *pcts, int npcts);
void report_csv(FILE *f, const struct level_result *r, int header);

/* The --report-interval line, in sysbench's layout; arg is the FILE *. */
void report_interval(const struct interval_stats *st, void *arg);

/* Client CPU (user + sys) per transaction in microseconds; 0 if none. */
double report_cpu_per_txn_us(const struct level_result *r);
/* "40P01:3;1213:2" */
void report_codes(const struct level_result *r, char *buf, size_t len);

#endif
