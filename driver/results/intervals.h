/*
 * intervals.h - intervals.csv, a sweep's time series: every --report-interval
 * period of every level (variant, cpus, threads, repeat, t, tps, qps, p95,
 * errors), so warmup effects, checkpoints and stalls inside a level can be
 * seen. One owner: intervals_write writes it whole and atomically (the sweep
 * rewrites it with each level, as results.csv), intervals_read reads it back
 * by header names.
 *
 * t is the period's end in seconds since the level's measured window began;
 * tps, qps and errors are per second over the period; p95 is the latency (ms)
 * at the sweep's report percentile (95 unless --percentile says otherwise).
 */
#ifndef DBSCALE_INTERVALS_H
#define DBSCALE_INTERVALS_H

#include <stddef.h>

#define INTERVALS_HEADER "variant,cpus,threads,repeat,t,tps,qps,p95,errors"

struct interval_row {
    char variant[32];
    int cpus, threads, repeat;
    double t, tps, qps, p95, errors;
};

struct intervals {
    struct interval_row *rows;
    size_t n, cap;
};

void intervals_add(struct intervals *iv, const struct interval_row *r);
/* Write iv to DIR/intervals.csv atomically. 0, or -errno. */
int intervals_write(const char *dir, const struct intervals *iv);
/* Read DIR/intervals.csv (or the file) by header names, adding to iv. 0, or
 * -1 with err naming the file and line. */
int intervals_read(const char *path, struct intervals *iv, char *err, size_t errlen);
void intervals_free(struct intervals *iv);

#endif
