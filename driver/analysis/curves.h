/*
 * curves.h - the model every view of results reads: the results directories
 * given (their rows, meta.json, intervals.csv, latency.csv), their curves
 * (a point per client thread count, with its spread over repeats, latency,
 * efficiency, speedup over the fewest CPUs, USL fit, peak and knee), the
 * kernel baseline's series, and the labels a reader sees.
 *
 * gnuplot (plot/plot.h), the HTML page (page/page.h) and the comparisons
 * read a struct curves; none of them computes a figure of its own, so a
 * number on a picture, in summary.csv and on the page is the same number.
 */
#ifndef DBSCALE_CURVES_H
#define DBSCALE_CURVES_H

#include <stddef.h>

#include <jansson.h>

#include "core/util.h"
#include "results/intervals.h"
#include "results/latcsv.h"
#include "results/results.h"
#include "stats/stats.h"

#define CURVE_MAXPTS 64

/* One results directory given on the command line. */
struct curves_dir {
    char path[512], name[64];
    char host[64], kernel[96], server[64]; /* from meta.json, "" when absent */
    json_t *meta;            /* the whole meta.json object, NULL when absent or not an object */
    char cpu_model[96];      /* from meta.json, "" when absent */
    double time_s, warmup_s; /* from meta.json, 0 when absent */
    int repeats;             /* from meta.json, 0 when absent */
    struct result_set rs;
    struct intervals iv; /* DIR/intervals.csv when there is one, else empty */
    struct latcsv lat;   /* DIR/latency.csv when there is one, else empty */
};

/* One curve: the points of one (directory, engine, workload, variant, cpus),
 * a point per client thread count, with its USL fit, peak and knee. */
struct curve {
    int dir; /* index into curves.dirs */
    char engine[16], workload[32], variant[32];
    int cpus;
    size_t k;
    double n[CURVE_MAXPTS], x[CURVE_MAXPTS]; /* threads, median throughput */
    struct stats_summary tp[CURVE_MAXPTS];
    double p50[CURVE_MAXPTS], p95[CURVE_MAXPTS], p99[CURVE_MAXPTS];
    double idle[CURVE_MAXPTS]; /* median server idle_pct, -1 when not recorded */
    /* Efficiency against the ideal that is linear up to cpus, flat after
     * (stats_efficiency_cpus), and whether the point beats that ideal. */
    double eff[CURVE_MAXPTS];
    int superlinear[CURVE_MAXPTS];
    /* Against the curve of the same results, engine and workload with the
     * fewest CPUs (base, an index into curves.c; -1: none at that thread count):
     * speedup = x / x_base at the same threads, efficiency = speedup / (cpus / base cpus). */
    int base;
    double cpu_speedup[CURVE_MAXPTS], cpu_eff[CURVE_MAXPTS];
    int fit_ok;     /* fitted and meaningful (stats_usl_meaningful) */
    char nofit[64]; /* why not, when !fit_ok */
    struct stats_usl usl;
    size_t peak, knee;
    char label[256];
};

/* A kernel baseline curve: one (test, mode) of micro.csv, or an fs.csv
 * operation (create, remove), at one CPU count: tasks and median ops/s. */
struct curve_kernel {
    char label[160];
    char test[48], what[64]; /* "getppid1", "processes, 2 CPUs": panel title and entry */
    int cpus;                /* the CPUs its tasks were bound to; 0 unknown */
    size_t k;
    double n[CURVE_MAXPTS], x[CURVE_MAXPTS];
};

/* What reading and computing tell the verb, which alone prints: lines for
 * stdout (a plot's summary table, "graph: PATH", graphs left out), warnings
 * that did not fail the run, and on failure why. */
struct curves_log {
    struct sbuf out, warn;
    char err[20480];
};

/* Everything read from the directories given and computed from them. */
struct curves {
    struct curves_dir *dirs;
    size_t ndirs;
    struct curve *c;
    size_t nc;
    struct curve_kernel *mc; /* every kernel series, by CPU count (curves_baseline.c) */
    size_t nmc;
    char subtitle[512];
    char footnote[256]; /* n, run time and warmup, on every graph */
    /* Set by the caller: directory labels ("pg,maria": the i-th names the
     * i-th directory, the rest keep their basename), or NULL. */
    const char *labels;
    struct curves_log *log; /* set by the caller */
};

/* Read the results directories (or DIR/results.csv paths) and their
 * meta.json into cv->dirs. 0, or -1 with the reason in cv->log->err: the
 * input is at fault. */
int curves_load(struct curves *cv, char **paths, size_t n);
/* What every view shows: the curves (built, scaled against the fewest CPUs,
 * labelled) and the kernel baseline, from what curves_load() read. */
void curves_build(struct curves *cv);
void curves_free(struct curves *cv);
/* The curve of directory 0 that curve i of a later directory is set against:
 * the same workload, variant and CPU count (the engine may differ:
 * PostgreSQL against MariaDB is a comparison people make); -1 when none, or
 * when i is directory 0's. */
int curves_match(const struct curves *cv, size_t i);
/* The one curve of (variant, cpus) among rows, built as curves_build
 * builds every curve (medians over repeats, peak, knee, USL): what a sweep
 * reads its knee from before it profiles it, so the knee it profiles is the
 * knee the page shows. */
void curves_of_rows(const struct result_row *rows, size_t n, const char *variant, int cpus,
                    struct curve *c);
/* The kernel baseline of every directory into cv->mc: each (test, mode) of
 * micro.csv and each fs.csv operation, at each CPU count, none dropped. A
 * file that cannot be read is left out with a warning in cv->log->warn
 * (curves_baseline.c). */
void curves_baseline_load(struct curves *cv);
/* Legend entries (c->label), cv->subtitle and cv->footnote, from the curves
 * and the directories' meta.json (curves_label.c). */
void curves_label(struct curves *cv);
/* The server as a reader names it, from meta.json's engine and
 * server_version: "PostgreSQL 15.18" (PostgreSQL reports the bare number),
 * "MariaDB 10.11.19" (from "10.11.19-MariaDB-0+deb12u1"), "MySQL 8.0.36";
 * a version that already names its server is kept ("PostgreSQL 15.8"); ""
 * when there is no version (curves_label.c). */
void curves_server_name(const char *engine, const char *version, char *out, size_t len);
/* The distinct workloads of cv's curves, "a, b" into list; how many. */
size_t curves_workloads(const struct curves *cv, char *list, size_t len);
/* Set cv->log->err (the first failure wins). */
void curves_fail(const struct curves *cv, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
