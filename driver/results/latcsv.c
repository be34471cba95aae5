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
#include "latcsv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "input.h"
#include "options.h"
#include "util.h"

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
    char p[1200];
    size_t len = strlen(path);
    if (len > 4 && !strcmp(path + len - 4, ".csv"))
        snprintf(p, sizeof p, "%s", path);
    else
        snprintf(p, sizeof p, "%s/latency.csv", path);
    FILE *f = results_input_open(p, err, errlen);
    if (!f)
        return -1;
    enum { VAR, CPUS, THR, REP, LO, HI, COUNT, NCOL };
    static const char *want[NCOL] = {"variant", "cpus",  "threads", "repeat",
                                     "lo_ms",   "hi_ms", "count"};
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
            for (int c = 0; c < NCOL && rc == 0; c++) {
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
        long long v[4];
        double lo, hi;
        int bad = 0;
        for (int c = 0; c < 3; c++)
            bad |= parse_int(fld[at[CPUS + c]], &v[c]) < 0 || v[c] < 0 || v[c] > 1 << 24;
        bad |= parse_int(fld[at[COUNT]], &v[3]) < 0 || v[3] < 0;
        bad |= parse_num(fld[at[LO]], &lo) < 0 || parse_num(fld[at[HI]], &hi) < 0 || !(lo >= 0) ||
               !(hi >= lo) || hi > 1e12;
        if (bad) {
            snprintf(err, errlen, "%s:%d: a field is not a number in range", p, lineno);
            rc = -1;
            break;
        }
        struct latcsv_row r = {.cpus = (int)v[0],
                               .threads = (int)v[1],
                               .repeat = (int)v[2],
                               .lo_ms = lo,
                               .hi_ms = hi,
                               .count = (uint64_t)v[3]};
        snprintf(r.variant, sizeof r.variant, "%s", fld[at[VAR]]);
        latcsv_add(l, &r);
    }
    free(line);
    fclose(f);
    return rc;
}

void latcsv_free(struct latcsv *l)
{
    free(l->rows);
    memset(l, 0, sizeof *l);
}
