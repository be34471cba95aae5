/*
 * csvfile.c - the reading loop every small results CSV shares.
 *
 * The one idea: a reader names the columns it wants and gets rows whose
 * fields are found by name, so column order and extra columns never matter
 * and the header and shape checks are written once. The file is opened
 * through results_input_open (a regular file of sane size).
 *
 * Never interpret a field here: turning text into numbers and ranges is
 * each file's reader's.
 */
#include "results/csvfile.h"

#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "results/input.h"

int csvfile_open(struct csvfile *c, const char *path, const char *name, const char *const *want,
                 int ncol, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    size_t l = strlen(path);
    if (l > 4 && !strcmp(path + l - 4, ".csv"))
        snprintf(c->path, sizeof c->path, "%s", path);
    else
        snprintf(c->path, sizeof c->path, "%s/%s", path, name);
    c->want = want;
    c->ncol = ncol < CSVFILE_MAXCOLS ? ncol : CSVFILE_MAXCOLS;
    c->f = results_input_open(c->path, err, errlen);
    return c->f ? 0 : -1;
}

/* Map the header's fields to the wanted columns; the first one missing is
 * the error. */
static int map_header(struct csvfile *c, int nf, char *err, size_t errlen)
{
    c->nh = nf;
    for (int w = 0; w < c->ncol; w++) {
        c->at[w] = -1;
        for (int i = 0; i < nf; i++)
            if (!strcmp(c->fld[i], c->want[w]))
                c->at[w] = i;
        if (c->at[w] < 0) {
            snprintf(err, errlen, "%s:%d: no %s column", c->path, c->lineno, c->want[w]);
            return -1;
        }
    }
    return 0;
}

int csvfile_next(struct csvfile *c, char *err, size_t errlen)
{
    while (csv_getline(c->f, &c->line, &c->cap, &c->lineno) >= 0) {
        int nf = csv_split(c->line, ',', c->fld, CSVFILE_MAXF);
        if (nf < 0 || nf > CSVFILE_MAXF) {
            snprintf(err, errlen, "%s:%d: not a CSV line of at most %d fields", c->path, c->lineno,
                     CSVFILE_MAXF);
            return -1;
        }
        if (c->nh == 0) {
            if (map_header(c, nf, err, errlen) < 0)
                return -1;
            continue;
        }
        if (nf != c->nh) {
            snprintf(err, errlen, "%s:%d: %d fields, the header has %d", c->path, c->lineno, nf,
                     c->nh);
            return -1;
        }
        return 1;
    }
    return 0;
}

void csvfile_close(struct csvfile *c)
{
    free(c->line);
    if (c->f)
        fclose(c->f);
    memset(c, 0, sizeof *c);
}
