/*
 * plot.h - scaling graphs from results directories, drawn by gnuplot.
 *
 * `dbscale plot RESULTS_DIR... [--out DIR] [--format png,svg]` (plot_main in
 * verbs.h) writes into DIR a data file per curve, a small generated script
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

#include "plot_files.h"
#include "results.h"
#include "stats.h"

#define PLOT_MAXPTS   64
#define PLOT_MAXMICRO 8

/* One results directory given on the command line. */
struct plot_dir {
    char path[512], name[64];
    char host[64], kernel[96], server[64]; /* from meta.json, "" when absent */
    json_t *meta; /* the whole meta.json object, NULL when absent or not an object */
    struct result_set rs;
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

/* A kernel baseline curve from micro.csv: tasks and median ops/s. */
struct plot_micro {
    char label[160];
    size_t k;
    double n[PLOT_MAXPTS], x[PLOT_MAXPTS];
};

/* Everything a plot run draws, filled by plot.c, drawn by plot_gp.c. */
struct plot {
    const char *out; /* the out directory */
    struct plot_dir *dirs;
    size_t ndirs;
    struct plot_curve *c;
    size_t nc;
    struct plot_micro mc[PLOT_MAXMICRO];
    size_t nmc;
    char subtitle[512];
    struct plot_files *written; /* every file written into out, recorded by plot_gp_write */
};

/* Read each results directory (or DIR/results.csv) with its meta.json and
 * micro.csv, and build, label and scale the curves: what `plot` draws and
 * what the page (page.h) shows. 0, or -1 with "PATH: reason" in err; either
 * way plot_release() frees what was read. */
int plot_load(struct plot *p, char *const *paths, int npaths, char *err, size_t errlen);
void plot_release(struct plot *p);

#endif
