/*
 * latcsv.c - latency.csv, written and read in one place.
 *
 * The one idea: keep the histogram, not percentiles of it. Percentiles of
 * repeats cannot be merged; bucket counts can, exactly, so the plot's
 * distribution per thread count is the true distribution of every
 * transaction measured at that count. Only non-empty buckets are written.
 * The file is rewritten whole and atomically, so a crash leaves the file of
 * the last finished level.
 *
 * Never print and never summarise here (that is the plot's).
 */
#include "results/latcsv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "results/csvfile.h"
#include "core/options.h"
#include "core/util.h"

void latcsv_add(struct latcsv *l, const struct latcsv_row *r)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->rows = xrealloc(l->rows, l->cap * sizeof *l->rows);
    }
    l->rows[l->n++] = *r;
}

int latcsv_write(const char *dir, const struct latcsv *l)
{
    struct sbuf b = {0};
    sbuf_printf(&b, "%s\n", LATCSV_HEADER);
    for (size_t i = 0; i < l->n; i++) {
        const struct latcsv_row *r = &l->rows[i];
        csv_put(&b, r->variant);
        sbuf_printf(&b, ",%d,%d,%d,%.6f,%.6f,%llu\n", r->cpus, r->threads, r->repeat, r->lo_ms,
                    r->hi_ms, (unsigned long long)r->count);
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/latency.csv", dir);
    int rc = write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    return rc;
}

int latcsv_read(const char *path, struct latcsv *l, char *err, size_t errlen)
{
    enum { VAR, CPUS, THR, REP, LO, HI, COUNT, NCOL };
    static const char *const want[NCOL] = {"variant", "cpus",  "threads", "repeat",
                                           "lo_ms",   "hi_ms", "count"};
    struct csvfile c;
    if (csvfile_open(&c, path, "latency.csv", want, NCOL, err, errlen) < 0)
        return -1;
    int rc;
    while ((rc = csvfile_next(&c, err, errlen)) > 0) {
        long long v[4];
        double lo, hi;
        int bad = 0;
        for (int k = 0; k < 3; k++)
            bad |= parse_int(csvfile_field(&c, CPUS + k), &v[k]) < 0 || v[k] < 0 || v[k] > 1 << 24;
        bad |= parse_int(csvfile_field(&c, COUNT), &v[3]) < 0 || v[3] < 0;
        bad |= parse_num(csvfile_field(&c, LO), &lo) < 0 ||
               parse_num(csvfile_field(&c, HI), &hi) < 0 || !(lo >= 0) || !(hi >= lo) || hi > 1e12;
        if (bad) {
            snprintf(err, errlen, "%s:%d: a field is not a number in range", c.path, c.lineno);
            rc = -1;
            break;
        }
        struct latcsv_row r = {.cpus = (int)v[0],
                               .threads = (int)v[1],
                               .repeat = (int)v[2],
                               .lo_ms = lo,
                               .hi_ms = hi,
                               .count = (uint64_t)v[3]};
        snprintf(r.variant, sizeof r.variant, "%s", csvfile_field(&c, VAR));
        latcsv_add(l, &r);
    }
    csvfile_close(&c);
    return rc < 0 ? -1 : 0;
}

void latcsv_free(struct latcsv *l)
{
    free(l->rows);
    memset(l, 0, sizeof *l);
}
