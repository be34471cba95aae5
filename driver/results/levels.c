/*
 * levels.c - levels.csv, written and read in one place.
 *
 * The one idea: when a level ran is a fact of its own, kept beside
 * results.csv as intervals.csv is (results.csv's columns are read by
 * position in places, so it grows none), one row per level in the same
 * order, so a reader joins them by (variant, cpus, threads, repeat). The
 * writer rewrites the whole file atomically; a directory from before the
 * file simply has none.
 *
 * Never print and never decide what a start time means (drift is the
 * page's to show).
 */
#include "results/levels.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "results/csvfile.h"
#include "core/options.h"
#include "core/util.h"

void levels_add(struct levels *l, const struct level_time *r)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 32;
        l->rows = xrealloc(l->rows, l->cap * sizeof *l->rows);
    }
    l->rows[l->n++] = *r;
}

int levels_write(const char *dir, const struct levels *l)
{
    struct sbuf b = {0};
    sbuf_printf(&b, "%s\n", LEVELS_HEADER);
    for (size_t i = 0; i < l->n; i++) {
        const struct level_time *r = &l->rows[i];
        csv_put(&b, r->variant);
        sbuf_printf(&b, ",%d,%d,%d,", r->cpus, r->threads, r->repeat);
        csv_put(&b, r->boot);
        sbuf_printf(&b, ",%.3f,%.3f\n", r->started, r->seconds);
    }
    char path[1200];
    snprintf(path, sizeof path, "%s/levels.csv", dir);
    int rc = write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    return rc;
}

int levels_read(const char *path, struct levels *l, char *err, size_t errlen)
{
    enum { VAR, CPUS, THR, REP, BOOT, START, SECS, NCOL };
    static const char *const want[NCOL] = {"variant", "cpus",    "threads", "repeat",
                                           "boot",    "started", "seconds"};
    struct csvfile c;
    if (csvfile_open(&c, path, "levels.csv", want, NCOL, err, errlen) < 0)
        return -1;
    int rc;
    while ((rc = csvfile_next(&c, err, errlen)) > 0) {
        struct level_time r = {0};
        long long v[3];
        int bad = 0;
        for (int k = 0; k < 3; k++)
            bad |= parse_int(csvfile_field(&c, CPUS + k), &v[k]) < 0 || v[k] < 0 || v[k] > 1 << 24;
        bad |= parse_num(csvfile_field(&c, START), &r.started) < 0 || r.started < 0 ||
               parse_num(csvfile_field(&c, SECS), &r.seconds) < 0 || r.seconds < 0;
        if (bad) {
            snprintf(err, errlen, "%s:%d: a field is not a number", c.path, c.lineno);
            rc = -1;
            break;
        }
        snprintf(r.variant, sizeof r.variant, "%s", csvfile_field(&c, VAR));
        snprintf(r.boot, sizeof r.boot, "%s", csvfile_field(&c, BOOT));
        r.cpus = (int)v[0], r.threads = (int)v[1], r.repeat = (int)v[2];
        levels_add(l, &r);
    }
    csvfile_close(&c);
    return rc < 0 ? -1 : 0;
}

void levels_free(struct levels *l)
{
    free(l->rows);
    memset(l, 0, sizeof *l);
}
