/*
 * latcsv.h - latency.csv, a sweep's latency distributions: for every level
 * (variant, cpus, threads, repeat) the non-empty buckets of its merged
 * transaction-latency histogram (stats/hist.h), as [lo_ms, hi_ms] and a
 * count, so a distribution (CDF, histogram) can be drawn afterwards, and
 * levels merged exactly by adding counts. One owner: latcsv_write writes the
 * whole file atomically (the sweep rewrites it with each level), latcsv_read
 * reads it back by header names.
 */
#ifndef DBSCALE_LATCSV_H
#define DBSCALE_LATCSV_H

#include <stddef.h>
#include <stdint.h>

#define LATCSV_HEADER "variant,cpus,threads,repeat,lo_ms,hi_ms,count"

struct latcsv_row {
    char variant[32];
    int cpus, threads, repeat;
    double lo_ms, hi_ms; /* the bucket's bounds, inclusive */
    uint64_t count;
};

struct latcsv {
    struct latcsv_row *rows;
    size_t n, cap;
};

void latcsv_add(struct latcsv *l, const struct latcsv_row *r);
/* Write l to DIR/latency.csv atomically. 0, or -errno. */
int latcsv_write(const char *dir, const struct latcsv *l);
/* Read DIR/latency.csv (or the file), adding to l. 0, or -1 with err naming
 * the file and line. */
int latcsv_read(const char *path, struct latcsv *l, char *err, size_t errlen);
void latcsv_free(struct latcsv *l);

#endif
