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
#include "intervals.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "input.h"
#include "options.h"
#include "util.h"

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
    char p[1200];
    size_t l = strlen(path);
    if (l > 4 && !strcmp(path + l - 4, ".csv"))
        snprintf(p, sizeof p, "%s", path);
    else
        snprintf(p, sizeof p, "%s/intervals.csv", path);
    FILE *f = results_input_open(p, err, errlen);
    if (!f)
        return -1;
    enum { VAR, CPUS, THR, REP, T, TPS, QPS, P95, ERRS, NCOL };
    static const char *want[NCOL] = {"variant", "cpus", "threads", "repeat", "t",
                                     "tps",     "qps",  "p95",     "errors"};
    int at[NCOL], nh = 0, lineno = 0, rc = 0;
    char *line = NULL, *fld[33];
    size_t cap = 0;
    while (rc == 0 && csv_getline(f, &line, &cap, &lineno) >= 0) {
        int nf = csv_split(line, ',', fld, 32);
        if (nf < 0 || nf > 32) {
            snprintf(err, errlen, "%s:%d: not a CSV line of at most 32 fields", p, lineno);
            rc = -1;
            break;
        }
        if (nh == 0) {
            nh = nf;
            for (int c = 0; c < NCOL; c++) {
                at[c] = -1;
                for (int i = 0; i < nf; i++)
                    if (!strcmp(fld[i], want[c]))
                        at[c] = i;
                if (at[c] < 0) {
                    snprintf(err, errlen, "%s:%d: no %s column", p, lineno, want[c]);
                    rc = -1;
                }
            }
            continue;
        }
        if (nf != nh) {
            snprintf(err, errlen, "%s:%d: %d fields, the header has %d", p, lineno, nf, nh);
            rc = -1;
            break;
        }
        struct interval_row r = {0};
        long long v[3];
        double d[5];
        int bad = 0;
        for (int c = 0; c < 3; c++)
            bad |= parse_int(fld[at[CPUS + c]], &v[c]) < 0 || v[c] < 0 || v[c] > 1 << 24;
        for (int c = 0; c < 5; c++)
            bad |= parse_num(fld[at[T + c]], &d[c]) < 0;
        if (bad) {
            snprintf(err, errlen, "%s:%d: a field is not a number", p, lineno);
            rc = -1;
            break;
        }
        snprintf(r.variant, sizeof r.variant, "%s", fld[at[VAR]]);
        r.cpus = (int)v[0], r.threads = (int)v[1], r.repeat = (int)v[2];
        r.t = d[0], r.tps = d[1], r.qps = d[2], r.p95 = d[3], r.errors = d[4];
        intervals_add(iv, &r);
    }
    free(line);
    fclose(f);
    return rc;
}

void intervals_free(struct intervals *iv)
{
    free(iv->rows);
    memset(iv, 0, sizeof *iv);
}
