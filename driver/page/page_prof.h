/*
 * page_prof.h - a curve's perf profiles on the page: the top functions at
 * one point split kernel / user (share of samples, microseconds per
 * transaction), the functions whose cost per transaction grew most between
 * two points (before against after the knee; fewest against most CPUs at
 * the same threads) and a flame graph per profiled point. Reads profile.csv's
 * rows and the folded files they name; computes nothing the page does not
 * show.
 */
#ifndef DBSCALE_PAGE_PROF_H
#define DBSCALE_PAGE_PROF_H

#include "results/folded.h"
#include "core/util.h"
#include "results/whycsv.h"

/* A profiled point: every profile of (variant, cpus, threads) merged. */
struct prof_point {
    char variant[32];
    int cpus, threads;
    double txns, server_cpu_s;
    char roles[48]; /* "knee", "before-knee", "level" ... */
    struct folded f;
};

/* The profiled points of (variant, cpus) in dir (profile.csv's rows of
 * w), ascending threads; *out malloc'd. Count. A folded file that cannot
 * be read is skipped. */
size_t prof_points(const struct whycsv *w, const char *dir, const char *variant, int cpus,
                   struct prof_point **out);
void prof_points_free(struct prof_point *p, size_t n);
const struct prof_point *prof_find(const struct prof_point *p, size_t n, int threads);

/* A function's microseconds per transaction at pt. */
double prof_us_txn(const struct prof_point *pt, double self);

/* Kernel functions that grew most per transaction from a to b (at most
 * max, the largest growth first), for the kernel baseline's mapping. */
int prof_grown_kernel(const struct prof_point *a, const struct prof_point *b, char (*fn)[128],
                      int max);

/* The top functions of pt as a table. */
void page_prof_top(struct sbuf *b, const struct prof_point *pt, int rows);
/* The functions whose cost per transaction grew most from a to b. */
void page_prof_diff(struct sbuf *b, const char *caption, const struct prof_point *a,
                    const struct prof_point *bp, int rows);
/* A flame graph per point, in <details> (the first open). */
void page_prof_flames(struct sbuf *b, const struct prof_point *p, size_t n);

#endif
