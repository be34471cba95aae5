/*
 * plot.h - scaling graphs from results directories, drawn by gnuplot.
 *
 * `dbscale plot RESULTS_DIR... [--out DIR] [--format png,svg]` (plot_main in
 * verbs/plot_verb.c) writes into DIR a data file per curve, a small generated script
 * per graph that loads the matching graphs/NAME.gp (copied beside it, so a
 * user can edit and re-run `gnuplot NAME.gp` by hand), the images, and the
 * statistics table as summary.md and summary.csv.
 *
 * The types below are what plot.c computes and plot_gp.c (plot_gp.h) draws.
 */
#ifndef DBSCALE_PLOT_H
#define DBSCALE_PLOT_H

#include <stddef.h>

#include <jansson.h>

#include "results/intervals.h"
#include "results/latcsv.h"
#include "results/plot_files.h"
#include "results/results.h"
#include "core/util.h"
#include "stats/stats.h"

#define PLOT_MAXPTS 64

/* One results directory given on the command line. */
struct plot_dir {
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
struct plot_curve {
    int dir; /* index into plot.dirs */
    char engine[16], workload[32], variant[32];
    int cpus;
    size_t k;
    double n[PLOT_MAXPTS], x[PLOT_MAXPTS]; /* threads, median throughput */
    struct stats_summary tp[PLOT_MAXPTS];
    double p50[PLOT_MAXPTS], p95[PLOT_MAXPTS], p99[PLOT_MAXPTS];
    double idle[PLOT_MAXPTS]; /* median server idle_pct, -1 when not recorded */
    /* Efficiency against the ideal that is linear up to cpus, flat after
     * (stats_efficiency_cpus), and whether the point beats that ideal. */
    double eff[PLOT_MAXPTS];
    int superlinear[PLOT_MAXPTS];
    /* Against the curve of the same results, engine and workload with the
     * fewest CPUs (base, an index into plot.c; -1: none at that thread count):
     * speedup = x / x_base at the same threads, efficiency = speedup / (cpus / base cpus). */
    int base;
    double cpu_speedup[PLOT_MAXPTS], cpu_eff[PLOT_MAXPTS];
    int fit_ok;     /* fitted and meaningful (stats_usl_meaningful) */
    char nofit[64]; /* why not, when !fit_ok */
    struct stats_usl usl;
    size_t peak, knee;
    char label[256];
};

/* A kernel baseline curve: one (test, mode) of micro.csv, or an fs.csv
 * operation (create, remove), at one CPU count: tasks and median ops/s. */
struct plot_micro {
    char label[160];
    char test[48], what[64]; /* "getppid1", "processes, 2 CPUs": panel title and entry */
    int cpus;                /* the CPUs its tasks were bound to; 0 unknown */
    size_t k;
    double n[PLOT_MAXPTS], x[PLOT_MAXPTS];
};

/* What a run tells its verb, which alone prints: lines for stdout (the
 * summary table, "graph: PATH", graphs left out), warnings that did not fail
 * the run, and on failure why. */
struct plot_log {
    struct sbuf out, warn;
    char err[20480];
};

/* Everything a plot run draws, filled by plot.c, drawn by plot_gp.c. */
struct plot {
    const char *out; /* the out directory */
    struct plot_dir *dirs;
    size_t ndirs;
    struct plot_curve *c;
    size_t nc;
    struct plot_micro *mc; /* every kernel series, by CPU count (plot_baseline.c) */
    size_t nmc;
    char subtitle[512];
    char footnote[256]; /* n, run time and warmup, on every graph */
    /* Set by the caller: directory labels ("pg,maria": the i-th names the
     * i-th directory, the rest keep their basename), or NULL; and the log y
     * axis: 0 automatic (on when curves differ by more than 10x), 1 on, -1 off. */
    const char *labels;
    int log_y;
    struct plot_files *written; /* every file written into out, recorded by plot_gp_write */
    struct plot_log *log;       /* set by the caller */
};

/* Read the results directories (or DIR/results.csv paths) and their
 * meta.json into p->dirs. 0, or -1 with the reason in p->log->err: the
 * input is at fault. */
int plot_load(struct plot *p, char **paths, size_t n);
/* Curves, summary table (into p->log->out), summary.md/.csv, data files,
 * scripts and images into p->out (made if missing), in each of formats
 * ("png,svg"); then what an earlier plot left there is removed. 0, or -1
 * with the reason in p->log->err (the machine or gnuplot failed). */
int plot_make(struct plot *p, const char *formats);
/* What plot_make computes before it draws: the curves (built, scaled against
 * the fewest CPUs, labelled) and the kernel baseline. The page (page.h)
 * shows these without drawing anything. */
void plot_prepare(struct plot *p);
void plot_free(struct plot *p);
/* The kernel baseline of every directory into p->mc: each (test, mode) of
 * micro.csv and each fs.csv operation, at each CPU count, none dropped. A
 * file that cannot be read is left out with a warning in p->log->warn. */
void plot_baseline_load(struct plot *p);
/* Legend entries (c->label), p->subtitle and p->footnote, from the curves
 * and the directories' meta.json (plot_label.c). */
void plot_label(struct plot *p);
/* The server as a reader names it, from meta.json's engine and
 * server_version: "PostgreSQL 15.18" (PostgreSQL reports the bare number),
 * "MariaDB 10.11.19" (from "10.11.19-MariaDB-0+deb12u1"), "MySQL 8.0.36";
 * a version that already names its server is kept ("PostgreSQL 15.8"); ""
 * when there is no version (plot_label.c). */
void plot_server_name(const char *engine, const char *version, char *out, size_t len);
/* The distinct workloads of p's curves, "a, b" into list; how many. */
size_t plot_workloads(const struct plot *p, char *list, size_t len);
/* Set p->log->err (the first failure wins). */
void plot_fail(const struct plot *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
