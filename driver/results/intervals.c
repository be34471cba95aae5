/*
 * intervals.c - intervals.csv, written and read in one place.
 *
 * The one idea: a level's periods are a time series, kept as plain rows
 * beside results.csv rather than folded into it, so results.csv stays one
 * row per level and a reader of either file needs no other. The writer
 * rewrites the whole file atomically, so a crash leaves the file of the last
 * finished level, never half a row; the variant goes through csv_put.
 *
 * Never print and never decide what a period means (that is the plot's).
 */
#include "results/intervals.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "results/csvfile.h"
#include "core/options.h"
#include "core/util.h"

void intervals_add(struct intervals *iv, const struct interval_row *r)
{
    if (iv->n == iv->cap) {
        iv->cap = iv->cap ? iv->cap * 2 : 64;
        iv->rows = xrealloc(iv->rows, iv->cap * sizeof *iv->rows);
    }
    iv->rows[iv->n++] = *r;
}

int intervals_write(const char *dir, const struct intervals *iv)
{
    struct sbuf b = {0};
    sbuf_printf(&b, "%s\n", INTERVALS_HEADER);
    for (size_t i = 0; i < iv->n; i++) {
        const struct interval_row *r = &iv->rows[i];
        csv_put(&b, r->variant);
        sbuf_printf(&b, ",%d,%d,%d,%.3f,%.2f,%.2f,%.3f,%.2f\n", r->cpus, r->threads, r->repeat,
                    r->t, r->tps, r->qps, r->p95, r->errors);
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/intervals.csv", dir);
    int rc = write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    return rc;
}

int intervals_read(const char *path, struct intervals *iv, char *err, size_t errlen)
{
    enum { VAR, CPUS, THR, REP, T, TPS, QPS, P95, ERRS, NCOL };
    static const char *const want[NCOL] = {"variant", "cpus", "threads", "repeat", "t",
                                           "tps",     "qps",  "p95",     "errors"};
    struct csvfile c;
    if (csvfile_open(&c, path, "intervals.csv", want, NCOL, err, errlen) < 0)
        return -1;
    int rc;
    while ((rc = csvfile_next(&c, err, errlen)) > 0) {
        struct interval_row r = {0};
        long long v[3];
        double d[5];
        int bad = 0;
        for (int k = 0; k < 3; k++)
            bad |= parse_int(csvfile_field(&c, CPUS + k), &v[k]) < 0 || v[k] < 0 || v[k] > 1 << 24;
        for (int k = 0; k < 5; k++)
            bad |= parse_num(csvfile_field(&c, T + k), &d[k]) < 0;
        if (bad) {
            snprintf(err, errlen, "%s:%d: a field is not a number", c.path, c.lineno);
            rc = -1;
            break;
        }
        snprintf(r.variant, sizeof r.variant, "%s", csvfile_field(&c, VAR));
        r.cpus = (int)v[0], r.threads = (int)v[1], r.repeat = (int)v[2];
        r.t = d[0], r.tps = d[1], r.qps = d[2], r.p95 = d[3], r.errors = d[4];
        intervals_add(iv, &r);
    }
    csvfile_close(&c);
    return rc < 0 ? -1 : 0;
}

void intervals_free(struct intervals *iv)
{
    free(iv->rows);
    memset(iv, 0, sizeof *iv);
}
