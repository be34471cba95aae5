/*
 * report_run.h - the report of one run: sysbench 1.0.20's layout, so scripts
 * written for sysbench's text read the same values from dbscale's, plus the
 * same figures as JSON or CSV, and the --report-interval figures both ways.
 */
#ifndef DBSCALE_REPORT_RUN_H
#define DBSCALE_REPORT_RUN_H

#include <stdio.h>

#include "client/worker.h"

/* What the report says about a run besides its figures. */
struct report_run_info {
    const char *workload, *engine; /* "oltp_read_only", "pgsql" */
    const char *server_version;    /* NULL when it could not be read */
    const char *options_json;      /* opts_json() of the command line (no passwords); NULL = {} */
    long long threads;
    double rate;               /* --rate, 0 = off */
    double report_interval;    /* 0 = off */
    long long rand_seed;       /* 0 = from the clock */
    const double *pcts;        /* --percentile values; the first is sysbench's line */
    int npcts;                 /* 0: --percentile=0, percentiles disabled as in sysbench */
    int histogram;             /* --histogram: sysbench's latency histogram */
    long long forced_in_s;     /* --forced-shutdown: --time + the grace, s; 0 = none */
    const double *checkpoints; /* --report-checkpoints, ascending */
    int ncheckpoints;
    int forced; /* --forced-shutdown=N: r->unfinished is sysbench's forced count */
};

/* "Running the test with following options:" ... "Initializing worker
 * threads...", as sysbench prints it before the threads start. */
void report_run_header(FILE *f, const struct report_run_info *ri);
/* The report after the run: dbscale's own figures (more percentiles, error
 * codes, client CPU) first, in lines that use none of the words sysbench
 * parsers grep for, then --histogram's histogram, then sysbench's sections
 * exactly as sysbench 1.0.20 prints them, ending with its blank line. */
void report_text(FILE *f, const struct level_result *r, const struct report_run_info *ri);
/* One JSON object on one line: the run's identity, options and figures;
 * error codes as {"40P01": 3}. */
void report_json(FILE *f, const struct level_result *r, const struct report_run_info *ri);
/* A CSV row (with header first when header != 0); one column per percentile. */
void report_csv(FILE *f, const struct level_result *r, const struct report_run_info *ri,
                int header);
/* sysbench's --report-checkpoints block: "[ Ns ] Checkpoint report:" and
 * the sysbench sections of r ("total time" is r->total_time_s, from the
 * start, while the rates are over r->time_s, since the last checkpoint). */
void report_checkpoint(FILE *f, double t, const struct level_result *r,
                       const struct report_run_info *ri);

/* Where the --report-interval figures go; the arg of report_interval. */
struct report_interval_sink {
    FILE *text;    /* sysbench's "[ 1s ] thds: ..." lines; NULL = none */
    FILE *machine; /* one JSON object (or CSV row) per interval; NULL = none */
    int csv;       /* machine is CSV (its header comes before the first row) */
    int rows;      /* rows written to machine so far */
    double rate;   /* --rate: sysbench then adds its queue-length line */
    int pct_off;   /* --percentile=0: sysbench shows "lat (ms,0%): 0.00" */
};
/* worker_cfg.on_interval: arg is a struct report_interval_sink *. */
void report_interval(const struct interval_stats *st, void *arg);
/* The machine file's form for a path: CSV if it ends in ".csv", else JSON lines. */
int report_interval_path_is_csv(const char *path);
/* --interval-output=path with --report-interval=interval_s: k->machine
 * opened (the caller closes it) and its form set; -1 with err when there
 * are no periods to write or the file cannot be made. */
int report_interval_open(struct report_interval_sink *k, const char *path, double interval_s,
                         char *err, size_t errlen);
/* Close what report_interval_open opened (nothing if it did not): -1 with
 * err when the file's last writes failed, so the run is not taken as saved. */
int report_interval_close(struct report_interval_sink *k, const char *path, char *err,
                          size_t errlen);

/* Client CPU (user + sys) per transaction in microseconds; 0 if none. */
double report_cpu_per_txn_us(const struct level_result *r);
/* "40P01:3;1213:2" (the results.csv column) */
void report_codes(const struct level_result *r, char *buf, size_t len);

#endif
