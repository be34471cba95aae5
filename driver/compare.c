/*
 * compare.c - `dbscale compare A B [C...]`: results sets side by side, with
 * the relative % of every pair in the will-it-scale reference's convention
 * and a ministat-style verdict on whether each difference is real.
 *
 * The one idea: every input (results dir, results/micro CSV, wide TSV) is
 * reduced to named sets of points, a point being a few key fields and a list
 * of samples. Matching, medians, floor((a/b - 1) * 100) and Welch's t-test
 * then work the same for all of them, and the table is built once as text
 * cells that the terminal, Markdown and CSV renderers only lay out.
 *
 * Never claim a difference without evidence: a mark needs at least two
 * samples on each side, and "no difference proven" is said out loud.
 */
#include "compare.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "options.h"
#include "results.h"
#include "stats.h"
#include "verbs.h"

static const char *field_names[COMPARE_NKINDS][COMPARE_NF] = {
    {"engine", "workload", "variant", "cpus", "threads"},
    {"test", "mode", "tasks", "cpus", "variant"},
};
/* Key fields always shown; the others only when they vary inside a set. */
static const int field_always[COMPARE_NKINDS][COMPARE_NF] = {{0, 0, 0, 0, 1}, {1, 1, 1, 0, 0}};

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
static void add_sample(struct compare_set *s, char f[COMPARE_NF][48], double v)
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
        return;
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 4;
        p->v = xrealloc(p->v, p->cap * sizeof *p->v);
    }
    p->v[p->n++] = v;
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

static int load_results(struct compare_sets *ss, const char *path, char *err, size_t errlen)
{
    struct result_set rs;
    if (results_read(path, &rs, err, errlen) < 0)
        return -1;
    char name[64];
    name_from_path(path, name, sizeof name);
    struct compare_set *s = new_set(ss, name, path, COMPARE_RESULTS);
    for (size_t i = 0; i < rs.n; i++) {
        const struct result_row *r = &rs.rows[i];
        char f[COMPARE_NF][48], c[16], t[16];
        snprintf(c, sizeof c, "%d", r->cpus);
        snprintf(t, sizeof t, "%d", r->threads);
        set_fields(f, r->engine, r->workload, r->variant, c, t);
        add_sample(s, f, r->tps);
    }
    results_free(&rs);
    return 0;
}

/* Split a line on sep in place; '"' quoting is honoured when sep is ','. */
static int split(char *line, char sep, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        char *out = p;
        f[n++] = out;
        if (sep == ',' && *p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++)
                *out++ = *p == '"' ? *++p : *p;
            if (*p == '"')
                p++;
            while (*p && *p != sep)
                p++;
        } else {
            while (*p && *p != sep)
                *out++ = *p++;
        }
        int end = *p == '\0';
        *out = '\0';
        if (end)
            return n;
        p++;
    }
    return max + 1;
}

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
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

#define MAXF 64

static int load_micro(struct compare_sets *ss, const char *file, const char *path, char *err,
                      size_t errlen)
{
    FILE *fp = fopen(file, "r");
    if (!fp) {
        snprintf(err, errlen, "%s: %s", file, strerror(errno));
        return -1;
    }
    char name[64];
    name_from_path(path, name, sizeof name);
    struct compare_set *s = NULL;
    enum { TEST, MODE, TASKS, CPUS, OPS, SAMPLES, ERROR, VARIANT, NCOL };
    static const char *want[NCOL] = {"test",      "mode",    "tasks", "cpus",
                                     "ops_per_s", "samples", "error", "variant"};
    int at[NCOL], nh = 0, lineno = 0, rc = -1;
    char *line = NULL, *f[MAXF + 1];
    size_t cap = 0;
    while (getline(&line, &cap, fp) >= 0) {
        lineno++;
        chomp(line);
        if (!line[0] || line[0] == '#')
            continue;
        int nf = split(line, ',', f, MAXF);
        if (nh == 0) {
            nh = nf;
            for (int c = 0; c < NCOL; c++) {
                at[c] = -1;
                for (int i = 0; i < nf && i < MAXF; i++)
                    if (!strcmp(f[i], want[c]))
                        at[c] = i;
            }
            if (at[TEST] < 0 || at[MODE] < 0 || at[TASKS] < 0 || at[OPS] < 0) {
                snprintf(err, errlen, "%s:%d: not a micro.csv header (test,mode,tasks,ops_per_s)",
                         file, lineno);
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
        int got = 0;
        if (at[SAMPLES] >= 0 && f[at[SAMPLES]][0]) {
            char *save = NULL;
            for (char *t = strtok_r(f[at[SAMPLES]], ";", &save); t;
                 t = strtok_r(NULL, ";", &save)) {
                double v;
                if (parse_num(t, &v) < 0) {
                    snprintf(err, errlen, "%s:%d: bad sample '%.40s'", file, lineno, t);
                    goto out;
                }
                add_sample(s, key, v);
                got = 1;
            }
        }
        if (!got) {
            double v;
            if (parse_num(f[at[OPS]], &v) < 0) {
                snprintf(err, errlen, "%s:%d: bad ops_per_s '%.40s'", file, lineno, f[at[OPS]]);
                goto out;
            }
            add_sample(s, key, v);
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
    FILE *fp = fopen(file, "r");
    if (!fp) {
        snprintf(err, errlen, "%s: %s", file, strerror(errno));
        return -1;
    }
    /* Two passes: the first decides which columns are raw. */
    char *line = NULL, *f[MAXF + 1], hdr[MAXF][64];
    size_t cap = 0;
    int nh = 0, lineno = 0, rc = -1, hline = 0;
    int signed_only[MAXF];
    while (getline(&line, &cap, fp) >= 0) {
        lineno++;
        chomp(line);
        if (!line[0] || line[0] == '#')
            continue;
        int nf = split(line, '\t', f, MAXF);
        if (nh == 0) {
            if (nf < 4 || nf > MAXF || strcmp(f[0], "test") || strcmp(f[1], "mode") ||
                strcmp(f[2], "tasks")) {
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
        for (int i = 3; i < nf; i++)
            if (strcmp(f[i], "N/A") && !is_signed_int(f[i]))
                signed_only[i] = 0;
    }
    if (nh == 0) {
        snprintf(err, errlen, "%s: no header line", file);
        goto out;
    }
    size_t first = ss->n;
    int setof[MAXF];
    for (int i = 3; i < nh; i++) {
        setof[i] = -1;
        if (is_rel_header(hdr[i]) || signed_only[i])
            continue;
        setof[i] = (int)(ss->n - first);
        new_set(ss, hdr[i], file, COMPARE_MICRO);
    }
    rewind(fp);
    lineno = 0;
    while (getline(&line, &cap, fp) >= 0) {
        lineno++;
        chomp(line);
        if (lineno <= hline || !line[0] || line[0] == '#')
            continue;
        split(line, '\t', f, MAXF);
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
            add_sample(&ss->s[first + (size_t)setof[i]], key, v);
        }
    }
    rc = 0;
out:
    free(line);
    fclose(fp);
    return rc;
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
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
        if (!is_file(r) && !is_file(m)) {
            snprintf(err, errlen, "%s: no results.csv or micro.csv in this directory", arg);
            return -1;
        }
        if (is_file(r) && load_results(ss, arg, err, errlen) < 0)
            return -1;
        if (is_file(m) && load_micro(ss, m, arg, err, errlen) < 0)
            return -1;
        return 0;
    }
    size_t n = strlen(arg);
    if (n > 4 && !strcmp(arg + n - 4, ".tsv"))
        return load_tsv(ss, arg, err, errlen);
    /* A CSV: the header says which kind. */
    FILE *fp = fopen(arg, "r");
    if (!fp) {
        snprintf(err, errlen, "%s: %s", arg, strerror(errno));
        return -1;
    }
    char line[1024] = "";
    while (fgets(line, sizeof line, fp) && line[0] == '#')
        ;
    fclose(fp);
    if (!strncmp(line, "test,", 5))
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
            free(ss->s[i].pts[j].v);
        free(ss->s[i].pts);
    }
    free(ss->s);
    ss->s = NULL;
    ss->n = 0;
}

/* Whole numbers as such when every value of the table is whole (the
 * reference's counts), else one decimal for throughputs. */
static char *fmt_value(double v, int whole)
{
    char b[64];
    if (whole && fabs(v) < 1e15)
        snprintf(b, sizeof b, "%.0f", v);
    else if (fabs(v) >= 100)
        snprintf(b, sizeof b, "%.1f", v);
    else
        snprintf(b, sizeof b, "%.3g", v);
    return xstrdup(b);
}

static const struct compare_point *find_point(const struct compare_set *s, const int *use,
                                              char f[COMPARE_NF][48])
{
    for (size_t i = 0; i < s->n; i++) {
        int same = 1;
        for (int k = 0; k < COMPARE_NF && same; k++)
            same = !use[k] || !strcmp(s->pts[i].f[k], f[k]);
        if (same)
            return &s->pts[i];
    }
    return NULL;
}

static void add_col(struct compare_table *t, const char *name, enum compare_col type)
{
    t->head = xrealloc(t->head, (t->ncols + 1) * sizeof *t->head);
    t->type = xrealloc(t->type, (t->ncols + 1) * sizeof *t->type);
    t->head[t->ncols] = xstrdup(name);
    t->type[t->ncols++] = type;
}

static void add_legend(struct compare_table *t, const char *s)
{
    t->legend = xrealloc(t->legend, (t->nlegend + 1) * sizeof *t->legend);
    t->legend[t->nlegend++] = xstrdup(s);
}

void compare_build(const struct compare_sets *ss, enum compare_kind kind, struct compare_table *t)
{
    memset(t, 0, sizeof *t);
    size_t m = 0, *idx = xcalloc(ss->n, sizeof *idx);
    for (size_t i = 0; i < ss->n; i++)
        if (ss->s[i].kind == kind)
            idx[m++] = i;
    if (m == 0) {
        free(idx);
        return;
    }
    /* Which key fields to show: always-fields, and fields that vary within a set. */
    int use[COMPARE_NF];
    for (int k = 0; k < COMPARE_NF; k++) {
        use[k] = field_always[kind][k];
        for (size_t a = 0; a < m && !use[k]; a++) {
            const struct compare_set *s = &ss->s[idx[a]];
            for (size_t p = 1; p < s->n && !use[k]; p++)
                use[k] = strcmp(s->pts[p].f[k], s->pts[0].f[k]) != 0;
        }
        if (use[k])
            add_col(t, field_names[kind][k], CC_KEY);
    }
    for (size_t a = 0; a < m; a++)
        add_col(t, ss->s[idx[a]].name, CC_VALUE);
    char buf[512];
    for (size_t a = 0; a < m; a++)
        for (size_t b = a + 1; b < m; b++) {
            const char *na = ss->s[idx[a]].name, *nb = ss->s[idx[b]].name;
            snprintf(buf, sizeof buf, "%cv%c", na[0], nb[0]);
            add_col(t, buf, CC_REL);
            snprintf(buf, sizeof buf, "%cv%c_sig", na[0], nb[0]);
            add_col(t, buf, CC_SIG);
            snprintf(buf, sizeof buf, "%cv%c_p", na[0], nb[0]);
            add_col(t, buf, CC_P);
            snprintf(buf, sizeof buf, "%cv%c: %s versus %s, floor((%s / %s - 1) * 100) %%", na[0],
                     nb[0], na, nb, na, nb);
            add_legend(t, buf);
        }
    add_legend(t, "values are medians over repeats/samples; N/A: missing on a side");
    if (m > 1)
        add_legend(t, "*: difference significant at 95% (Welch's t-test); "
                      "~: no difference proven at 95%; no mark: fewer than 2 samples");

    /* Rows: the union of keys in order of first appearance. */
    size_t cap = 0;
    char(*keys)[COMPARE_NF][48] = NULL;
    for (size_t a = 0; a < m; a++) {
        const struct compare_set *s = &ss->s[idx[a]];
        for (size_t p = 0; p < s->n; p++) {
            int seen = 0;
            for (size_t r = 0; r < t->nrows && !seen; r++) {
                seen = 1;
                for (int k = 0; k < COMPARE_NF && seen; k++)
                    seen = !use[k] || !strcmp(keys[r][k], s->pts[p].f[k]);
            }
            if (seen)
                continue;
            if (t->nrows == cap) {
                cap = cap ? cap * 2 : 64;
                keys = xrealloc(keys, cap * sizeof *keys);
            }
            memcpy(keys[t->nrows++], s->pts[p].f, sizeof keys[0]);
        }
    }
    int whole = 1;
    for (size_t a = 0; a < m && whole; a++)
        for (size_t q = 0; q < ss->s[idx[a]].n && whole; q++) {
            const struct compare_point *cp = &ss->s[idx[a]].pts[q];
            double v = cp->n ? stats_median(cp->v, cp->n) : 0;
            whole = v == floor(v);
        }
    t->cell = xcalloc(t->nrows * t->ncols + 1, sizeof *t->cell);
    const struct compare_point **pt = xcalloc(m, sizeof *pt);
    double *med = xcalloc(m, sizeof *med);
    for (size_t r = 0; r < t->nrows; r++) {
        char **row = t->cell + r * t->ncols;
        size_t c = 0;
        for (int k = 0; k < COMPARE_NF; k++)
            if (use[k])
                row[c++] = xstrdup(keys[r][k]);
        for (size_t a = 0; a < m; a++) {
            pt[a] = find_point(&ss->s[idx[a]], use, keys[r]);
            if (pt[a] && pt[a]->n == 0)
                pt[a] = NULL;
            if (pt[a])
                med[a] = stats_median(pt[a]->v, pt[a]->n);
            row[c++] = pt[a] ? fmt_value(med[a], whole) : xstrdup("N/A");
        }
        for (size_t a = 0; a < m; a++)
            for (size_t b = a + 1; b < m; b++) {
                long long rel;
                struct stats_welch w;
                if (!pt[a] || !pt[b] || stats_relpct(med[a], med[b], &rel) < 0) {
                    row[c++] = xstrdup("N/A");
                    row[c++] = xstrdup("");
                    row[c++] = xstrdup("");
                    continue;
                }
                snprintf(buf, sizeof buf, "%+lld", rel);
                row[c++] = xstrdup(buf);
                if (stats_welch(pt[a]->v, pt[a]->n, pt[b]->v, pt[b]->n, &w) == 0) {
                    row[c++] = xstrdup(w.significant ? "*" : "~");
                    snprintf(buf, sizeof buf, "%.4g", w.p);
                    row[c++] = xstrdup(buf);
                } else {
                    row[c++] = xstrdup("");
                    row[c++] = xstrdup("");
                }
            }
    }
    free(med);
    free(pt);
    free(keys);
    free(idx);
}

void compare_table_free(struct compare_table *t)
{
    for (size_t i = 0; i < t->nrows * t->ncols; i++)
        free(t->cell[i]);
    for (size_t i = 0; i < t->ncols; i++)
        free(t->head[i]);
    for (size_t i = 0; i < t->nlegend; i++)
        free(t->legend[i]);
    free(t->cell);
    free(t->head);
    free(t->type);
    free(t->legend);
    memset(t, 0, sizeof *t);
}

/* Display cell: REL with its SIG mark appended; SIG and P are not shown. */
static void disp(const struct compare_table *t, size_t r, size_t c, char *out, size_t len)
{
    const char *v = r == (size_t)-1 ? t->head[c] : t->cell[r * t->ncols + c];
    const char *mark = "";
    if (r != (size_t)-1 && t->type[c] == CC_REL && c + 1 < t->ncols)
        mark = t->cell[r * t->ncols + c + 1];
    snprintf(out, len, "%s%s", v, mark);
}

void compare_render_text(const struct compare_table *t, struct sbuf *b)
{
    size_t *w = xcalloc(t->ncols, sizeof *w);
    int *marks = xcalloc(t->ncols, sizeof *marks);
    char cell[128];
    for (size_t c = 0; c < t->ncols; c++)
        for (size_t r = (size_t)-1; r == (size_t)-1 || r < t->nrows; r++) {
            disp(t, r, c, cell, sizeof cell);
            if (strlen(cell) > w[c])
                w[c] = strlen(cell);
            if (r != (size_t)-1 && t->type[c] == CC_SIG && t->cell[r * t->ncols + c][0])
                marks[c - 1] = 1;
        }
    for (size_t r = (size_t)-1; r == (size_t)-1 || r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            if (t->type[c] == CC_SIG || t->type[c] == CC_P)
                continue;
            disp(t, r, c, cell, sizeof cell);
            int left = t->type[c] == CC_KEY;
            /* Marks hang to the right so the numbers stay aligned. */
            int hang = marks[c] && r != (size_t)-1 && !t->cell[r * t->ncols + c + 1][0];
            sbuf_printf(b, "%s%*s%s", c ? "  " : "", left ? -(int)w[c] : (int)w[c] - hang, cell,
                        hang ? " " : "");
        }
        sbuf_add(b, "\n", 1);
    }
    for (size_t i = 0; i < t->nlegend; i++)
        sbuf_printf(b, "  %s\n", t->legend[i]);
    free(marks);
    free(w);
}

void compare_render_md(const struct compare_table *t, struct sbuf *b)
{
    char cell[128];
    for (size_t r = (size_t)-1; r == (size_t)-1 || r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            if (t->type[c] == CC_SIG || t->type[c] == CC_P)
                continue;
            disp(t, r, c, cell, sizeof cell);
            sbuf_printf(b, "| %s ", cell);
        }
        sbuf_add(b, "|\n", 2);
        if (r == (size_t)-1) {
            for (size_t c = 0; c < t->ncols; c++)
                if (t->type[c] != CC_SIG && t->type[c] != CC_P)
                    sbuf_printf(b, "|%s", t->type[c] == CC_KEY ? "---" : "---:");
            sbuf_add(b, "|\n", 2);
        }
    }
    sbuf_add(b, "\n", 1);
    for (size_t i = 0; i < t->nlegend; i++)
        sbuf_printf(b, "- %s\n", t->legend[i]);
}

static void csv_cell(struct sbuf *b, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        sbuf_add(b, s, strlen(s));
        return;
    }
    sbuf_add(b, "\"", 1);
    for (; *s; s++) {
        if (*s == '"')
            sbuf_add(b, "\"", 1);
        sbuf_add(b, s, 1);
    }
    sbuf_add(b, "\"", 1);
}

void compare_render_csv(const struct compare_table *t, struct sbuf *b)
{
    for (size_t r = (size_t)-1; r == (size_t)-1 || r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            const char *v = r == (size_t)-1 ? t->head[c] : t->cell[r * t->ncols + c];
            if (c)
                sbuf_add(b, ",", 1);
            if (r != (size_t)-1 && t->type[c] == CC_SIG)
                v = !strcmp(v, "*") ? "significant" : !strcmp(v, "~") ? "no difference proven" : "";
            csv_cell(b, v);
        }
        sbuf_add(b, "\n", 1);
    }
}

static const struct optdef compare_opts[] = {
    {"out", OPT_STR, NULL, "also write compare.md and compare.csv into this directory"},
};

static int write_out(const char *dir, const char *name, const struct sbuf *b)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = write_file_atomic(path, b->s ? b->s : "", b->len);
    if (rc < 0) {
        warnx_("cannot write %s: %s", path, strerror(-rc));
        return -1;
    }
    printf("wrote %s\n", path);
    return 0;
}

int compare_main(int argc, char **argv)
{
    struct opts o;
    opts_init(&o, compare_opts, sizeof compare_opts / sizeof compare_opts[0]);
    char *pos[64], err[512];
    int npos, rc = opts_parse_argv(&o, argc, argv, 1, pos, 64, &npos, err, sizeof err);
    if (rc == 1 || (rc == 0 && npos == 0)) {
        fputs("usage: dbscale compare A B [C...] [--out DIR]\n"
              "  each of A, B... a results directory, a results.csv or micro.csv, or a wide\n"
              "  FILE.tsv (test mode tasks NAME...; one set per raw column)\n"
              "Points match by threads (sweeps) or test, mode and tasks (micro); engine,\n"
              "workload, variant and cpus join the key only when they vary inside a set.\n"
              "Each pair gets floor((a/b - 1) * 100) % on the medians, marked * when\n"
              "Welch's t-test finds the difference significant at 95%, ~ when not.\n",
              rc == 1 ? stdout : stderr);
        opts_help(&o, rc == 1 ? stdout : stderr);
        opts_free(&o);
        return rc == 1 ? 0 : EXIT_USAGE;
    }
    if (rc < 0) {
        opts_free(&o);
        die(EXIT_USAGE, "%s", err);
    }
    struct compare_sets ss = {0};
    for (int i = 0; i < npos; i++)
        if (compare_load(&ss, pos[i], err, sizeof err) < 0) {
            warnx_("%s", err);
            compare_sets_free(&ss);
            opts_free(&o);
            return EXIT_USAGE;
        }
    compare_name_sets(&ss);
    const char *out = opts_str(&o, "out");
    if (out && mkdir_p(out, 0755) < 0) {
        warnx_("cannot create %s: %s", out, strerror(errno));
        rc = EXIT_RUNTIME;
    }
    struct sbuf md = {0};
    int tables = 0;
    size_t per[COMPARE_NKINDS] = {0}, most = 0;
    for (size_t i = 0; i < ss.n; i++)
        per[ss.s[i].kind]++;
    for (int k = 0; k < COMPARE_NKINDS; k++)
        most = per[k] > most ? per[k] : most;
    for (int k = 0; k < COMPARE_NKINDS && rc == 0; k++) {
        struct compare_table t;
        if (per[k] < most && per[k] < 2)
            continue; /* e.g. one micro.csv among several sweeps: nothing to compare */
        compare_build(&ss, (enum compare_kind)k, &t);
        if (t.ncols == 0)
            continue;
        struct sbuf txt = {0}, csv = {0};
        compare_render_text(&t, &txt);
        fputs(txt.s, stdout);
        sbuf_printf(&md, "## %s\n\n",
                    k == COMPARE_RESULTS ? "Database throughput (tps)" : "Kernel baseline (ops/s)");
        compare_render_md(&t, &md);
        sbuf_add(&md, "\n", 1);
        compare_render_csv(&t, &csv);
        if (out && write_out(out, tables ? "compare-micro.csv" : "compare.csv", &csv) < 0)
            rc = EXIT_RUNTIME;
        tables++;
        sbuf_free(&txt);
        sbuf_free(&csv);
        compare_table_free(&t);
    }
    if (rc == 0 && tables == 0) {
        warnx_("nothing to compare");
        rc = EXIT_USAGE;
    }
    if (rc == 0 && out && write_out(out, "compare.md", &md) < 0)
        rc = EXIT_RUNTIME;
    sbuf_free(&md);
    compare_sets_free(&ss);
    opts_free(&o);
    return rc;
}
