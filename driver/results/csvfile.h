/*
 * csvfile.h - reading a small results CSV (intervals.csv, latency.csv) by
 * column name: the path rule, the header check and the field-count check
 * in one place, so each file's reader only turns fields into a row.
 */
#ifndef DBSCALE_CSVFILE_H
#define DBSCALE_CSVFILE_H

#include <stddef.h>
#include <stdio.h>

#define CSVFILE_MAXCOLS 16
#define CSVFILE_MAXF    32

struct csvfile {
    char path[1200];
    FILE *f;
    char *line;
    size_t cap;
    int lineno, nh;
    const char *const *want;
    int ncol;
    int at[CSVFILE_MAXCOLS]; /* wanted column -> field index */
    char *fld[CSVFILE_MAXF + 1];
};

/* Open path (a .csv file, else the directory holding name) through
 * results_input_open, wanting the ncol named columns (at most
 * CSVFILE_MAXCOLS). -1 with err set when it cannot be opened. */
int csvfile_open(struct csvfile *c, const char *path, const char *name, const char *const *want,
                 int ncol, char *err, size_t errlen);

/* The next data row: 1 with its fields in csvfile_field, 0 at the end, -1
 * with "PATH:LINE: why" in err on a malformed line, a wanted column missing
 * from the header or a row whose field count is not the header's. */
int csvfile_next(struct csvfile *c, char *err, size_t errlen);

/* Field of wanted column col (its index in want) in the current row. */
static inline const char *csvfile_field(const struct csvfile *c, int col)
{
    return c->fld[c->at[col]];
}

void csvfile_close(struct csvfile *c);

#endif
