/*
 * compare_load.c - the loaders of `dbscale compare` (and of plot's kernel
 * baseline): a results directory, a results.csv or micro.csv, or a wide TSV
 * like the will-it-scale reference, each read into named sets of keyed
 * points.
 *
 * The one idea: every input is reduced to the same shape, a set of points
 * each holding a few key fields and a list of samples (tps per repeat, ops/s
 * per micro sample, one value per TSV cell), so what comes after (matching,
 * medians, relative %, Welch) never knows which file a number came from.
 * Key fields are normalised on the way in ("01" and "1" tasks are one key).
 *
 * Never guess at a malformed file: a bad header, field count or number is an
 * error naming file and line; never compute or print a comparison here.
 */
#include "analysis/compare_load.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/csv.h"
#include "results/input.h"
#include "core/options.h"
#include "results/results.h"
#include "stats/stats.h"

static struct compare_set *new_set(struct compare_sets *ss, const char *name, const char *path,
                                   enum compare_kind kind)
{
    ss->s = xrealloc(ss->s, (ss->n + 1) * sizeof *ss->s);
    struct compare_set *s = &ss->s[ss->n++];
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->path, sizeof s->path, "%s", path);
    s->kind = kind;
    return s;
}

/* The point with key f, made when new; v is added unless NaN (a key known
 * to the set but with no value, like an N/A cell). */
static struct compare_point *add_sample(struct compare_set *s, char f[COMPARE_NF][48], double v)
{
    struct compare_point *p = NULL;
    for (size_t i = 0; i < s->n && !p; i++)
        if (memcmp(s->pts[i].f, f, sizeof s->pts[i].f) == 0)
            p = &s->pts[i];
    if (!p) {
        s->pts = xrealloc(s->pts, (s->n + 1) * sizeof *s->pts);
        p = &s->pts[s->n++];
        memset(p, 0, sizeof *p);
        memcpy(p->f, f, sizeof p->f);
    }
    if (isnan(v))
        return p;
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 4;
        p->v = xrealloc(p->v, p->cap * sizeof *p->v);
    }
    p->v[p->n++] = v;
    return p;
}

/* One independent run's value for the point. */
static void add_rep(struct compare_point *p, double v)
{
    if (p->nrep == p->repcap) {
        p->repcap = p->repcap ? p->repcap * 2 : 4;
        p->rep = xrealloc(p->rep, p->repcap * sizeof *p->rep);
    }
    p->rep[p->nrep++] = v;
}

/* Both: a run whose one value is its sample (a repeat's tps, a TSV cell). */
static void add_run(struct compare_set *s, char f[COMPARE_NF][48], double v)
{
    struct compare_point *p = add_sample(s, f, v);
    if (!isnan(v))
        add_rep(p, v);
}

static void set_fields(char f[COMPARE_NF][48], const char *a, const char *b, const char *c,
                       const char *d, const char *e)
{
    memset(f, 0, COMPARE_NF * sizeof f[0]);
    const char *v[COMPARE_NF] = {a, b, c, d, e};
    for (int i = 0; i < COMPARE_NF; i++)
        snprintf(f[i], sizeof f[i], "%s", v[i] ? v[i] : "");
}

/* Name of a set read from path: the directory's name for DIR, DIR/results.csv
 * or DIR/micro.csv, else the file name without extension. */
static void name_from_path(const char *path, char *out, size_t len)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", path);
    size_t n = strlen(buf);
    while (n > 1 && buf[n - 1] == '/')
        buf[--n] = '\0';
    char *base = strrchr(buf, '/');
    if (base && (!strcmp(base + 1, "results.csv") || !strcmp(base + 1, "micro.csv"))) {
        *base = '\0';
        base = strrchr(buf, '/');
    } else if (!base && (!strcmp(buf, "results.csv") || !strcmp(buf, "micro.csv"))) {
        snprintf(buf, sizeof buf, ".");
    }
    base = base ? base + 1 : buf;
    char *dot = strrchr(base, '.');
    if (dot && dot != base && (!strcmp(dot, ".csv") || !strcmp(dot, ".tsv")))
        *dot = '\0';
    size_t n2 = strlen(base) < len ? strlen(base) : len - 1;
    memcpy(out, base, n2);
    out[n2] = '\0';
}

/* A sweep's own label ("up", "smp-kN": the kernel and the CPU count) says
 * nothing cpus does not, so it is left out of the key: the same point of two
 * kernels, one booted UP and one SMP held to one CPU, then matches. A user's
 * --variant label stays in. */
static const char *key_variant(const struct result_row *r)
{
    char own[32];
    snprintf(own, sizeof own, "smp-k%d", r->cpus);
    return (r->cpus == 1 && !strcmp(r->variant, "up")) || !strcmp(r->variant, own) ? ""
                                                                                   : r->variant;
}

static int load_results(struct compare_sets *ss, const char *path, char *err, size_t errlen)
{
    struct result_set rs;
    if (results_read(path, &rs, err, errlen) < 0)
        return -1;
    if (rs.n == 0) { /* as plot and report: nothing to compare is no comparison */
        snprintf(err, errlen, "%s: no result rows in results.csv", path);
        results_free(&rs);
        return -1;
    }
    char name[64];
    name_from_path(path, name, sizeof name);
    struct compare_set *s = new_set(ss, name, path, COMPARE_RESULTS);
    for (size_t i = 0; i < rs.n; i++) {
        const struct result_row *r = &rs.rows[i];
        char f[COMPARE_NF][48], c[16], t[16];
        snprintf(c, sizeof c, "%d", r->cpus);
        snprintf(t, sizeof t, "%d", r->threads);
        set_fields(f, r->engine, r->workload, key_variant(r), c, t);
        add_run(s, f, r->tps);
    }
    results_free(&rs);
    return 0;
}

/* "01" and "1" are the same task count. */
static void norm_int(const char *in, char *out, size_t len)
{
    long long v;
    if (parse_int(in, &v) == 0)
        snprintf(out, len, "%lld", v);
    else
        snprintf(out, len, "%s", in);
}

#define MAXF     64
#define TSV_MAXF 1024

static int load_micro(struct compare_sets *ss, const char *file, const char *path, char *err,
                      size_t errlen)
{
    FILE *fp = results_input_open(file, err, errlen);
    if (!fp)
        return -1;
    char name[64];
    name_from_path(path, name, sizeof name);
    struct compare_set *s = NULL;
    enum { TEST, MODE, TASKS, CPUS, OPS, SAMPLES, ERROR, VARIANT, NCOL };
    static const char *want[NCOL] = {"test",      "mode",    "tasks", "cpus",
                                     "ops_per_s", "samples", "error", "variant"};
    int at[NCOL], nh = 0, lineno = 0, rc = -1;
    char *line = NULL, *f[MAXF + 1];
    size_t cap = 0;
    while (csv_getline(fp, &line, &cap, &lineno) >= 0) {
        int nf = csv_split(line, ',', f, MAXF);
        if (nf < 0) {
            snprintf(err, errlen, "%s:%d: unterminated quote", file, lineno);
            goto out;
        }
        if (nh == 0) {
            nh = nf;
            for (int c = 0; c < NCOL; c++) {
                at[c] = -1;
                for (int i = 0; i < nf && i < MAXF; i++)
                    if (!strcmp(f[i], want[c]))
                        at[c] = i;
            }
            for (int c = TEST; c <= OPS; c++)
                if (at[c] < 0 && c != CPUS) {
                    snprintf(err, errlen,
                             "%s:%d: micro.csv header lacks column '%s' (needs test, mode, "
                             "tasks, ops_per_s)",
                             file, lineno, want[c]);
                    goto out;
                }
            s = new_set(ss, name, path, COMPARE_MICRO);
            continue;
        }
        if (nf != nh) {
            snprintf(err, errlen, "%s:%d: %d fields, the header has %d", file, lineno, nf, nh);
            goto out;
        }
        if (at[ERROR] >= 0 && f[at[ERROR]][0])
            continue; /* a failed test has no number to compare */
        char tasks[48], cpus[48] = "";
        norm_int(f[at[TASKS]], tasks, sizeof tasks);
        if (at[CPUS] >= 0)
            norm_int(f[at[CPUS]], cpus, sizeof cpus);
        char key[COMPARE_NF][48];
        set_fields(key, f[at[TEST]], f[at[MODE]], tasks, cpus,
                   at[VARIANT] >= 0 ? f[at[VARIANT]] : "");
        /* The row is one run: its samples are pooled for the median shown,
         * its own median is the one value a test may count as independent. */
        int got = 0;
        size_t first = 0;
        struct compare_point *pt = NULL;
        if (at[SAMPLES] >= 0 && f[at[SAMPLES]][0]) {
            char *save = NULL;
            for (char *t = strtok_r(f[at[SAMPLES]], ";", &save); t;
                 t = strtok_r(NULL, ";", &save)) {
                double v;
                if (parse_num(t, &v) < 0) {
                    snprintf(err, errlen, "%s:%d: bad sample '%.40s'", file, lineno, t);
                    goto out;
                }
                if (!got) {
                    pt = add_sample(s, key, NAN);
                    first = pt->n;
                }
                add_sample(s, key, v);
                got = 1;
            }
            if (got)
                add_rep(pt, stats_median(pt->v + first, pt->n - first));
        }
        if (!got) {
            double v;
            if (parse_num(f[at[OPS]], &v) < 0) {
                snprintf(err, errlen, "%s:%d: bad ops_per_s '%.40s'", file, lineno, f[at[OPS]]);
                goto out;
            }
            add_run(s, key, v);
        }
    }
    if (nh == 0) {
        snprintf(err, errlen, "%s: no header line", file);
        goto out;
    }
    rc = 0;
out:
    free(line);
    fclose(fp);
    return rc;
}

/* A relative column: header an abbreviation pair ("FvD"), or every value
 * signed ("+12", "-3") or N/A. */
static int is_rel_header(const char *h)
{
    return strlen(h) == 3 && isalpha((unsigned char)h[0]) && h[1] == 'v' &&
           isalpha((unsigned char)h[2]);
}

static int is_signed_int(const char *v)
{
    if (*v != '+' && *v != '-')
        return 0;
    if (!v[1])
        return 0;
    for (v++; *v; v++)
        if (!isdigit((unsigned char)*v))
            return 0;
    return 1;
}

static int load_tsv(struct compare_sets *ss, const char *file, char *err, size_t errlen)
{
    FILE *fp = results_input_open(file, err, errlen);
    if (!fp)
        return -1;
    /* Two passes: the first decides which columns are raw. */
    /* Up to TSV_MAXF columns (a wide table of many sets), on the heap. */
    char *line = NULL, **f = xcalloc(TSV_MAXF + 1, sizeof *f);
    char(*hdr)[64] = xcalloc(TSV_MAXF, sizeof *hdr);
    size_t cap = 0;
    int nh = 0, lineno = 0, rc = -1, hline = 0;
    int *signed_only = xcalloc(TSV_MAXF, sizeof *signed_only),
        *plus = xcalloc(TSV_MAXF, sizeof *plus), *setof = xcalloc(TSV_MAXF, sizeof *setof);
    while (csv_getline(fp, &line, &cap, &lineno) >= 0) {
        int nf = csv_split(line, '\t', f, TSV_MAXF);
        if (nh == 0 && nf > TSV_MAXF) {
            snprintf(err, errlen, "%s:%d: more than %d columns", file, lineno, TSV_MAXF);
            goto out;
        }
        if (nh == 0) {
            if (nf < 4 || strcmp(f[0], "test") || strcmp(f[1], "mode") || strcmp(f[2], "tasks")) {
                snprintf(err, errlen, "%s:%d: expected a header 'test mode tasks NAME...'", file,
                         lineno);
                goto out;
            }
            nh = nf;
            hline = lineno;
            for (int i = 0; i < nf; i++) {
                snprintf(hdr[i], sizeof hdr[i], "%s", f[i]);
                signed_only[i] = 1;
            }
            continue;
        }
        if (nf != nh) {
            snprintf(err, errlen, "%s:%d: %d fields, the header has %d", file, lineno, nf, nh);
            goto out;
        }
        for (int i = 3; i < nf; i++) {
            if (strcmp(f[i], "N/A") && !is_signed_int(f[i]))
                signed_only[i] = 0;
            plus[i] |= f[i][0] == '+';
        }
    }
    if (nh == 0) {
        snprintf(err, errlen, "%s: no header line", file);
        goto out;
    }
    size_t first = ss->n;
    for (int i = 3; i < nh; i++) {
        setof[i] = -1;
        /* Relative by its header (FvD), or every value signed with some
         * explicit '+': a raw column of negative numbers is data. */
        if (is_rel_header(hdr[i]) || (signed_only[i] && plus[i]))
            continue;
        setof[i] = (int)(ss->n - first);
        new_set(ss, hdr[i], file, COMPARE_MICRO);
    }
    rewind(fp);
    lineno = 0;
    while (csv_getline(fp, &line, &cap, &lineno) >= 0) {
        if (lineno <= hline)
            continue;
        csv_split(line, '\t', f, TSV_MAXF);
        char tasks[48], key[COMPARE_NF][48];
        norm_int(f[2], tasks, sizeof tasks);
        set_fields(key, f[0], f[1], tasks, "", "");
        for (int i = 3; i < nh; i++) {
            if (setof[i] < 0)
                continue;
            double v = NAN;
            if (strcmp(f[i], "N/A") && (parse_num(f[i], &v) < 0 || isnan(v))) {
                snprintf(err, errlen, "%s:%d: bad value '%.40s' in column %s", file, lineno, f[i],
                         hdr[i]);
                goto out;
            }
            add_run(&ss->s[first + (size_t)setof[i]], key, v);
        }
    }
    rc = 0;
out:
    free(line);
    free(f), free(hdr), free(signed_only), free(plus), free(setof);
    fclose(fp);
    return rc;
}

/* Something by that name, whatever it is (a dangling link too). */
static int exists(const char *p)
{
    struct stat st;
    return lstat(p, &st) == 0;
}

int compare_load(struct compare_sets *ss, const char *arg, char *err, size_t errlen)
{
    struct stat st;
    if (stat(arg, &st) < 0) {
        snprintf(err, errlen, "%s: %s", arg, strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        char r[1024], m[1024];
        snprintf(r, sizeof r, "%s/results.csv", arg);
        snprintf(m, sizeof m, "%s/micro.csv", arg);
        if (!exists(r) && !exists(m)) {
            snprintf(err, errlen, "%s: no results.csv or micro.csv in this directory", arg);
            return -1;
        }
        /* one that is there but unreadable (a FIFO, a link to a device, a
         * directory) is an error, never skipped for the other */
        if (exists(r) && load_results(ss, arg, err, errlen) < 0)
            return -1;
        if (exists(m) && load_micro(ss, m, arg, err, errlen) < 0)
            return -1;
        return 0;
    }
    size_t n = strlen(arg);
    if (n > 4 && !strcmp(arg + n - 4, ".tsv"))
        return load_tsv(ss, arg, err, errlen);
    /* A CSV: the header says which kind. */
    FILE *fp = results_input_open(arg, err, errlen);
    if (!fp)
        return -1;
    /* the header is the first line that is not blank or a comment, however
     * long the comments are */
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    /* micro.csv by name, or a header with micro's own columns: its errors
     * then name micro's columns, not results.csv's "engine". */
    const char *base = strrchr(arg, '/');
    int micro = !strcmp(base ? base + 1 : arg, "micro.csv");
    if (csv_getline(fp, &line, &cap, &lineno) >= 0)
        micro |= !strncmp(line, "test,", 5) || strstr(line, "ops_per_s") != NULL;
    free(line);
    fclose(fp);
    if (micro)
        return load_micro(ss, arg, arg, err, errlen);
    return load_results(ss, arg, err, errlen);
}

void compare_name_sets(struct compare_sets *ss)
{
    for (size_t i = 0; i < ss->n; i++)
        for (size_t j = i + 1; j < ss->n; j++) {
            if (ss->s[i].kind != ss->s[j].kind || strcmp(ss->s[i].name, ss->s[j].name))
                continue;
            /* Same name: use the last two path components of both. */
            for (size_t k = 0; k < 2; k++) {
                struct compare_set *s = &ss->s[k ? j : i];
                char buf[512];
                snprintf(buf, sizeof buf, "%s", s->path);
                size_t n = strlen(buf);
                while (n > 1 && buf[n - 1] == '/')
                    buf[--n] = '\0';
                char *a = strrchr(buf, '/');
                if (a && a > buf) {
                    *a = '\0';
                    char *b = strrchr(buf, '/');
                    *a = '/';
                    snprintf(s->name, sizeof s->name, "%.63s", b ? b + 1 : buf);
                }
            }
            if (!strcmp(ss->s[i].name, ss->s[j].name)) {
                char tmp[96];
                snprintf(tmp, sizeof tmp, "%.56s#%zu", ss->s[j].name, j + 1);
                memcpy(ss->s[j].name, tmp, sizeof ss->s[j].name - 1);
            }
        }
}

void compare_sets_free(struct compare_sets *ss)
{
    for (size_t i = 0; i < ss->n; i++) {
        for (size_t j = 0; j < ss->s[i].n; j++)
            free(ss->s[i].pts[j].v), free(ss->s[i].pts[j].rep);
        free(ss->s[i].pts);
    }
    free(ss->s);
    ss->s = NULL;
    ss->n = 0;
}
