/*
 * benchcsv.c - micro.csv and fs.csv, each written and read in one place.
 *
 * The one idea, as in results.c: a table of columns (name, type, offset into
 * the row struct) drives the header, the writer and the reader, so they
 * cannot disagree, and text goes through csv_put, so a comma or a quote in an
 * error message is quoted instead of being turned into a space. A column
 * marked "blank on error" is written empty when the row's error is set: a
 * failed point has no numbers, and an empty field says so where 0 would lie.
 */
#include "results/benchcsv.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "core/safefile.h"
#include "machine/kernelinfo.h"

enum bc_type { B_STR, B_INT, B_LL, B_NUM1, B_NUM2, B_NUM6 };

struct bcol {
    const char *name;
    enum bc_type type;
    size_t off, size;
    int blank_on_error;
};

struct btable {
    const char *file, *header;
    const struct bcol *cols;
    size_t ncols, rowsize, error_off;
};

#define MS(f)                                                                                      \
    {                                                                                              \
#f, B_STR, offsetof(struct microcsv_row, f), sizeof(((struct microcsv_row *)0)->f), 0      \
    }
#define MI(f)                                                                                      \
    {                                                                                              \
#f, B_INT, offsetof(struct microcsv_row, f), 0, 0                                          \
    }
#define MN(n, f, t)                                                                                \
    {                                                                                              \
        n, t, offsetof(struct microcsv_row, f), 0, 1                                               \
    }

/* clang-format off */
static const struct bcol micro_cols[] = {
    MS(test), MS(mode), MI(tasks), MI(cpus),
    MN("ops_per_s", ops, B_NUM1), MN("min", min, B_NUM1), MN("max", max, B_NUM1),
    MN("cv", cv, B_NUM2),
    MS(samples), MS(fs_type), MS(error), MS(variant),
    MN("idle", idle, B_NUM1), MS(boot), /* new columns go at the end: readers go by name */
};
/* clang-format on */

#define FS_(f)                                                                                     \
    {                                                                                              \
#f, B_STR, offsetof(struct fscsv_row, f), sizeof(((struct fscsv_row *)0)->f), 0            \
    }
#define FI(f)                                                                                      \
    {                                                                                              \
#f, B_INT, offsetof(struct fscsv_row, f), 0, 0                                             \
    }
#define FN(n, f, t)                                                                                \
    {                                                                                              \
        n, t, offsetof(struct fscsv_row, f), 0, 1                                                  \
    }

/* clang-format off */
static const struct bcol fs_cols[] = {
    FI(files), FI(pass), FI(tasks), FI(cpus),
    FN("create_s", create_s, B_NUM6), FN("create_files_per_s", create_per_s, B_NUM2),
    FN("remove_s", remove_s, B_NUM6), FN("remove_files_per_s", remove_per_s, B_NUM2),
    FS_(error), FI(shared_dir), {"size", B_LL, offsetof(struct fscsv_row, size), 0, 0},
    FI(fsync), FS_(fs_type), FS_(variant), FS_(boot),
};
/* clang-format on */

static const struct btable micro_table = {"micro.csv",
                                          MICROCSV_HEADER,
                                          micro_cols,
                                          sizeof micro_cols / sizeof micro_cols[0],
                                          sizeof(struct microcsv_row),
                                          offsetof(struct microcsv_row, error)};
static const struct btable fs_table = {"fs.csv",
                                       FSCSV_HEADER,
                                       fs_cols,
                                       sizeof fs_cols / sizeof fs_cols[0],
                                       sizeof(struct fscsv_row),
                                       offsetof(struct fscsv_row, error)};

static void format_row(const struct btable *t, struct sbuf *b, const void *row)
{
    const char *r = row;
    int failed = r[t->error_off] != '\0';
    for (size_t c = 0; c < t->ncols; c++) {
        const struct bcol *col = &t->cols[c];
        const void *p = r + col->off;
        if (c)
            sbuf_add(b, ",", 1);
        if (failed && col->blank_on_error)
            continue;
        switch (col->type) {
        case B_STR:
            csv_put(b, p);
            break;
        case B_INT:
            sbuf_printf(b, "%d", *(const int *)p);
            break;
        case B_LL:
            sbuf_printf(b, "%lld", *(const long long *)p);
            break;
        case B_NUM1:
            sbuf_printf(b, "%.1f", *(const double *)p);
            break;
        case B_NUM2:
            sbuf_printf(b, "%.2f", *(const double *)p);
            break;
        case B_NUM6:
            sbuf_printf(b, "%.6f", *(const double *)p);
            break;
        }
    }
    sbuf_add(b, "\n", 1);
}

/* A row being formatted is a row just measured: one without a boot was
 * measured in this one (upgrade() formats old rows as they are). */
void microcsv_format(struct sbuf *b, const struct microcsv_row *r)
{
    struct microcsv_row c = *r;
    if (!c.boot[0])
        snprintf(c.boot, sizeof c.boot, "%s", kernelinfo_boot_id());
    format_row(&micro_table, b, &c);
}

void fscsv_format(struct sbuf *b, const struct fscsv_row *r)
{
    struct fscsv_row c = *r;
    if (!c.boot[0])
        snprintf(c.boot, sizeof c.boot, "%s", kernelinfo_boot_id());
    format_row(&fs_table, b, &c);
}

static int read_table(const struct btable *t, const char *path, void **rows, size_t *n, char *err,
                      size_t errlen);

/* A file whose header is an older one of t (this header cut at a comma):
 * its rows read back by name and written again under this header, the
 * columns it lacked empty, into b. 0, or -1 with err. */
static int upgrade(const struct btable *t, const char *path, struct sbuf *b, char *err,
                   size_t errlen)
{
    void *old;
    size_t n;
    if (read_table(t, path, &old, &n, err, errlen) < 0)
        return -1;
    b->len = 0;
    sbuf_printf(b, "%s\n", t->header);
    for (size_t i = 0; i < n; i++)
        format_row(t, b, (const char *)old + i * t->rowsize);
    free(old);
    return 0;
}

static int append(const struct btable *t, const char *dir, const struct sbuf *rows, char *err,
                  size_t errlen)
{
    char path[4096];
    int e = dir_make_nofollow(dir, 0755);
    if (e < 0) {
        snprintf(err, errlen, "cannot create %s: %s", dir, file_strerror(e));
        return -1;
    }
    snprintf(path, sizeof path, "%s/%s", dir, t->file);
    struct sbuf b = {0};
    size_t hl = strlen(t->header);
    e = sbuf_read_file(&b, path);
    size_t ol = e == 0 && b.len > 0 ? strcspn(b.s, "\n") : 0;
    if (ol > 0 && ol < hl && ol < b.len && !strncmp(b.s, t->header, ol) && t->header[ol] == ',') {
        if (upgrade(t, path, &b, err, errlen) < 0) {
            sbuf_free(&b);
            return -1;
        }
    } else if (e == 0 && b.len > 0) {
        if (b.len <= hl || strncmp(b.s, t->header, hl) != 0 || b.s[hl] != '\n') {
            snprintf(err, errlen, "%s: not a %s of this version (header differs)", path, t->file);
            sbuf_free(&b);
            return -1;
        }
    } else if (e < 0 && e != -ENOENT) {
        snprintf(err, errlen, "cannot read %s: %s", path, strerror(-e));
        sbuf_free(&b);
        return -1;
    } else {
        sbuf_free(&b);
        sbuf_printf(&b, "%s\n", t->header);
    }
    if (rows->len)
        sbuf_add(&b, rows->s, rows->len);
    e = write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    if (e < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(-e));
        return -1;
    }
    return 0;
}

int microcsv_append(const char *dir, const struct sbuf *rows, char *err, size_t errlen)
{
    return append(&micro_table, dir, rows, err, errlen);
}

int fscsv_append(const char *dir, const struct sbuf *rows, char *err, size_t errlen)
{
    return append(&fs_table, dir, rows, err, errlen);
}

static int set_field(const struct bcol *c, char *row, const char *v)
{
    void *p = row + c->off;
    char *end;
    errno = 0;
    if (c->type == B_STR) {
        if (strlen(v) >= c->size)
            return -1;
        strcpy(p, v);
        return 0;
    }
    if (!*v)
        return 0; /* a blank number: a failed point */
    if (c->type == B_INT || c->type == B_LL) {
        long long x = strtoll(v, &end, 10);
        if (errno || *end || (c->type == B_INT && (x < -2147483647LL || x > 2147483647LL)))
            return -1;
        if (c->type == B_INT)
            *(int *)p = (int)x;
        else
            *(long long *)p = x;
        return 0;
    }
    double x = strtod(v, &end);
    if (errno || *end)
        return -1;
    *(double *)p = x;
    return 0;
}

#define MAXF 64

static int read_table(const struct btable *t, const char *path, void **rows, size_t *n, char *err,
                      size_t errlen)
{
    char file[4096];
    size_t l = strlen(path);
    if (l > 4 && !strcmp(path + l - 4, ".csv"))
        snprintf(file, sizeof file, "%s", path);
    else
        snprintf(file, sizeof file, "%s/%s", path, t->file);
    *rows = NULL;
    *n = 0;
    FILE *f = fopen_regular(file); /* a FIFO would block, a device never end */
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", file, file_strerror(errno));
        return -1;
    }
    char *line = NULL, *fld[MAXF + 1];
    size_t cap = 0, nrows = 0, rcap = 0;
    int lineno = 0, map[MAXF], nh = -1, rc = 0;
    char *out = NULL;
    while (csv_getline(f, &line, &cap, &lineno) >= 0) {
        int nf = csv_split(line, ',', fld, MAXF);
        if (nf < 0 || nf > MAXF) {
            snprintf(err, errlen, "%s:%d: malformed CSV line", file, lineno);
            rc = -1;
            break;
        }
        if (nh < 0) { /* the header: map each field to a column, unknown ones skipped */
            nh = nf;
            for (int i = 0; i < nf; i++) {
                map[i] = -1;
                for (size_t c = 0; c < t->ncols; c++)
                    if (!strcmp(fld[i], t->cols[c].name))
                        map[i] = (int)c;
            }
            continue;
        }
        if (nf != nh) {
            snprintf(err, errlen, "%s:%d: %d fields, the header has %d", file, lineno, nf, nh);
            rc = -1;
            break;
        }
        if (nrows == rcap) {
            rcap = rcap ? rcap * 2 : 16;
            out = xrealloc(out, rcap * t->rowsize);
        }
        char *row = out + nrows * t->rowsize;
        memset(row, 0, t->rowsize);
        for (int i = 0; i < nf && rc == 0; i++)
            if (map[i] >= 0 && set_field(&t->cols[map[i]], row, fld[i]) < 0) {
                snprintf(err, errlen, "%s:%d: %s: bad value '%s'", file, lineno,
                         t->cols[map[i]].name, fld[i]);
                rc = -1;
            }
        if (rc)
            break;
        nrows++;
    }
    free(line);
    fclose(f);
    if (rc == 0 && nh < 0) {
        snprintf(err, errlen, "%s: empty (no header)", file);
        rc = -1;
    }
    if (rc < 0) {
        free(out);
        return -1;
    }
    *rows = out;
    *n = nrows;
    return 0;
}

int microcsv_read(const char *path, struct microcsv_row **rows, size_t *n, char *err, size_t errlen)
{
    void *r;
    int rc = read_table(&micro_table, path, &r, n, err, errlen);
    *rows = r;
    return rc;
}

int fscsv_read(const char *path, struct fscsv_row **rows, size_t *n, char *err, size_t errlen)
{
    void *r;
    int rc = read_table(&fs_table, path, &r, n, err, errlen);
    *rows = r;
    return rc;
}
