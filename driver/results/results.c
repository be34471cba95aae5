/*
 * results.c - results.csv on disk: the sweep writes it, plot and compare read
 * it back (the format is documented in results.h).
 *
 * The one idea: one table of column descriptors (name, type, offset into
 * struct result_row) drives both the writer and the reader, so the two can
 * never disagree about order or meaning. The reader maps columns by header
 * name, so files from a newer writer with extra columns still load.
 *
 * Never write in place (the whole file goes through write_file_atomic), and
 * never trust a file: a malformed line is an error naming file and line.
 */
#include "results/results.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/csv.h"
#include "results/input.h"
#include "core/util.h"

enum col_type { C_STR, C_INT, C_LL, C_NUM };

struct col {
    const char *name;
    enum col_type type;
    size_t off, size; /* size: C_STR buffer length */
    int required;
    int unmeasured; /* C_NUM: absent or empty is NAN (not measured), not 0 */
};

#define S(f, req)                                                                                  \
    {                                                                                              \
#f, C_STR, offsetof(struct result_row, f), sizeof(((struct result_row *)0)->f), req        \
    }
#define I(f, req)                                                                                  \
    {                                                                                              \
#f, C_INT, offsetof(struct result_row, f), 0, req                                          \
    }
#define L(f)                                                                                       \
    {                                                                                              \
#f, C_LL, offsetof(struct result_row, f), 0, 0                                             \
    }
#define D(f, req)                                                                                  \
    {                                                                                              \
#f, C_NUM, offsetof(struct result_row, f), 0, req, 0                                       \
    }
#define LAT(f)                                                                                     \
    {                                                                                              \
#f, C_NUM, offsetof(struct result_row, f), 0, 0, 1                                         \
    }

static const struct col cols[] = {
    S(engine, 1),
    S(workload, 0),
    S(variant, 1),
    I(cpus, 1),
    I(threads, 1),
    I(repeat, 0),
    D(time_s, 0),
    D(tps, 1),
    D(qps, 0),
    D(qps_read, 0),
    D(qps_write, 0),
    D(qps_other, 0),
    LAT(lat_min_ms),
    LAT(lat_avg_ms),
    LAT(lat_p50_ms),
    LAT(lat_p95_ms),
    LAT(lat_p99_ms),
    LAT(lat_max_ms),
    L(errors),
    L(reconnects),
    S(error_codes, 0),
    D(client_cpu_s, 0),
    D(client_cpu_per_txn_us, 0),
    D(server_cpu_s, 0),
    D(idle_pct, 0),
    S(client_cpus, 0),
    S(server_cpus, 0),
    I(shared_cpus, 0),
    I(disturbed, 0),
    S(disturbed_why, 0),
    S(rank, 0),
    S(host, 0),
    I(connections, 0),
    S(boot, 0),
};
#define NCOLS (sizeof cols / sizeof cols[0])

static void put_rows(struct sbuf *b, const struct result_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *r = (const char *)&rows[i];
        for (size_t c = 0; c < NCOLS; c++) {
            const void *p = r + cols[c].off;
            if (c)
                sbuf_add(b, ",", 1);
            switch (cols[c].type) {
            case C_STR:
                csv_put(b, p);
                break;
            case C_INT:
                sbuf_printf(b, "%d", *(const int *)p);
                break;
            case C_LL:
                sbuf_printf(b, "%lld", *(const long long *)p);
                break;
            case C_NUM: /* not measured (NAN, results.h) is an empty cell */
                if (!isnan(*(const double *)p))
                    sbuf_printf(b, "%.15g", *(const double *)p);
                break;
            }
        }
        sbuf_add(b, "\n", 1);
    }
}

int results_write_csv(const char *dir, const struct result_row *rows, size_t n)
{
    return results_write_csv_ranks(dir, rows, n, NULL, 0);
}

int results_write_csv_ranks(const char *dir, const struct result_row *rows, size_t n,
                            const struct result_row *rank_rows, size_t nrank)
{
    struct sbuf b = {0};
    for (size_t c = 0; c < NCOLS; c++)
        sbuf_printf(&b, "%s%s", c ? "," : "", cols[c].name);
    sbuf_add(&b, "\n", 1);
    put_rows(&b, rows, n);
    put_rows(&b, rank_rows, nrank);
    char path[1024];
    int rc;
    if (snprintf(path, sizeof path, "%s/results.csv", dir) >= (int)sizeof path)
        rc = -ENAMETOOLONG;
    else
        rc = write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    return rc;
}

static int set_field(const struct col *c, char *row, const char *v)
{
    void *p = row + c->off;
    char *end;
    errno = 0;
    switch (c->type) {
    case C_STR:
        if (strlen(v) >= c->size)
            return -1;
        strcpy(p, v);
        return 0;
    case C_INT: {
        long x = *v ? strtol(v, &end, 10) : 0;
        if (*v && (errno || *end || x < -2147483647L || x > 2147483647L))
            return -1;
        *(int *)p = (int)x;
        return 0;
    }
    case C_LL: {
        long long x = *v ? strtoll(v, &end, 10) : 0;
        if (*v && (errno || *end))
            return -1;
        *(long long *)p = x;
        return 0;
    }
    case C_NUM: {
        /* Every figure is a count, rate, time or share: finite, >= 0 and
         * below 1e15 (1e308 and inf reached gnuplot as "inf"). A latency
         * left empty was not measured: NAN, never 0. */
        double x = *v ? strtod(v, &end) : c->unmeasured ? NAN : 0;
        if (*v && (*end || !isfinite(x) || x < 0 || x >= 1e15))
            return -1;
        *(double *)p = x;
        return 0;
    }
    }
    return -1;
}

#define MAXF 256

int results_read(const char *path, struct result_set *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char file[1024];
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        snprintf(file, sizeof file, "%s/results.csv", path);
    else
        snprintf(file, sizeof file, "%s", path);
    snprintf(out->path, sizeof out->path, "%s", path);
    FILE *f = results_input_open(file, err, errlen); /* regular, sane size (input.h) */
    if (!f)
        return -1;
    int map[MAXF]; /* field index -> column, -1 when unknown */
    int nfields = 0, lineno = 0, have[NCOLS] = {0};
    size_t cap = 0, rcap = 0;
    char *line = NULL, *fld[MAXF + 1];
    size_t lcap = 0;
    int rc = -1;
    while (csv_getline(f, &line, &lcap, &lineno) >= 0) {
        int nf = csv_split(line, ',', fld, MAXF);
        if (nf < 0 || nf > MAXF) {
            snprintf(err, errlen, "%s:%d: %s", file, lineno,
                     nf < 0 ? "unterminated quote" : "too many fields");
            goto out;
        }
        if (nfields == 0) { /* the header */
            nfields = nf;
            for (int i = 0; i < nf; i++) {
                map[i] = -1;
                for (size_t c = 0; c < NCOLS; c++)
                    if (strcmp(fld[i], cols[c].name) == 0) {
                        map[i] = (int)c;
                        have[c] = 1;
                    }
            }
            for (size_t c = 0; c < NCOLS; c++)
                if (cols[c].required && !have[c]) {
                    snprintf(err, errlen, "%s:%d: header lacks required column '%s'", file, lineno,
                             cols[c].name);
                    goto out;
                }
            continue;
        }
        if (nf != nfields) {
            snprintf(err, errlen, "%s:%d: %d fields, the header has %d", file, lineno, nf, nfields);
            goto out;
        }
        struct result_row r0;
        struct result_row *r = &r0;
        memset(r, 0, sizeof *r);
        for (size_t c = 0; c < NCOLS; c++) /* a column the file lacks: not measured */
            if (cols[c].unmeasured && !have[c])
                *(double *)((char *)r + cols[c].off) = NAN;
        for (int i = 0; i < nf; i++) {
            if (map[i] < 0)
                continue;
            const struct col *c = &cols[map[i]];
            if ((c->required && !fld[i][0]) || set_field(c, (char *)r, fld[i]) < 0) {
                snprintf(err, errlen, "%s:%d: bad %s '%.40s'%s", file, lineno, c->name, fld[i],
                         c->type == C_NUM ? " (want a number, 0 <= x < 1e15)" : "");
                goto out;
            }
        }
        if (r->threads < 1 || r->cpus < 0 || !isfinite(r->tps) || r->tps < 0) {
            snprintf(err, errlen, "%s:%d: threads, cpus or tps out of range", file, lineno);
            goto out;
        }
        /* a rank's part of a level goes beside the levels, not among them */
        struct result_row **to = r->rank[0] ? &out->rank_rows : &out->rows;
        size_t *nto = r->rank[0] ? &out->nrank : &out->n;
        size_t *cto = r->rank[0] ? &rcap : &cap;
        if (*nto == *cto) {
            *cto = *cto ? *cto * 2 : 64;
            *to = xrealloc(*to, *cto * sizeof **to);
        }
        (*to)[(*nto)++] = r0;
    }
    if (nfields == 0) {
        snprintf(err, errlen, "%s: no header line", file);
        goto out;
    }
    rc = 0;
out:
    free(line);
    fclose(f);
    if (rc < 0)
        results_free(out);
    return rc;
}

void results_free(struct result_set *s)
{
    free(s->rows);
    free(s->rank_rows);
    s->rows = s->rank_rows = NULL;
    s->n = s->nrank = 0;
}
