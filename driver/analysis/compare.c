/*
 * compare.c - `dbscale compare A B [C...]`: results sets side by side, with
 * the relative % of every pair in the will-it-scale reference's convention
 * and a ministat-style verdict on whether each difference is real.
 *
 * This room matches points across sets, computes the columns and lays the
 * table out; compare_load.c reads the inputs, verbs/compare_verb.c prints.
 *
 * The one idea: every input (results dir, results/micro CSV, wide TSV) is
 * reduced by compare_load.c to named sets of points, a point being a few key
 * fields and a list of samples. Matching, medians, floor((a/b - 1) * 100) and
 * the tests then work the same for all of them, and the table is built
 * once as text cells that the terminal, Markdown and CSV renderers only lay
 * out.
 *
 * Never claim a difference without evidence: the test is over independent
 * runs (repeats), never over the samples inside one run, a mark needs at
 * least two runs on each side ("no test (n=1)" otherwise), the marks of a
 * table hold together at a 5% false-discovery rate (Benjamini-Hochberg over
 * all its tests: a grid of 48 cells marks next to nothing from noise
 * alone), and "no difference proven" is said out loud.
 */
#include "analysis/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
#include "stats/fdr.h"
#include "stats/stats.h"

static const char *field_names[COMPARE_NKINDS][COMPARE_NF] = {
    {"engine", "workload", "variant", "cpus", "threads"},
    {"test", "mode", "tasks", "cpus", "variant"},
};
/* Key fields always shown; the others only when they vary inside a set. */
static const int field_always[COMPARE_NKINDS][COMPARE_NF] = {{0, 0, 0, 0, 1}, {1, 1, 1, 0, 0}};

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

/* (a / b - 1) * 100 fits a long long (false for NaN and infinities too). */
static int relpct_fits(double a, double b)
{
    return b > 0 && fabs((a - b) / b) < 9e16;
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

/* The key fields to show, in use: the always-fields, and fields that vary
 * within a set; a column for each. */
static void key_columns(struct compare_table *t, const struct compare_set **sets, size_t m,
                        enum compare_kind kind, int use[COMPARE_NF])
{
    for (int k = 0; k < COMPARE_NF; k++) {
        use[k] = field_always[kind][k];
        for (size_t a = 0; a < m && !use[k]; a++) {
            const struct compare_set *s = sets[a];
            for (size_t p = 1; p < s->n && !use[k]; p++)
                use[k] = strcmp(s->pts[p].f[k], s->pts[0].f[k]) != 0;
        }
        if (use[k])
            add_col(t, field_names[kind][k], CC_KEY);
    }
}

/* Each pair's relative %, mark and p columns, and its legend line. A pair
 * is named by the sets' initials (FvD), or by letters A, B... when two sets
 * share an initial (6.1.0-57-amd64.smp, 6.1.0-57-amd64.up) */
static void pair_columns(struct compare_table *t, const struct compare_set **sets, size_t m)
{
    char *ini = xcalloc(m, 1);
    int clash = 0;
    for (size_t a = 0; a < m; a++) {
        ini[a] = sets[a]->name[0];
        for (size_t b = 0; b < a; b++)
            clash |= ini[a] == ini[b];
    }
    for (size_t a = 0; clash && a < m; a++)
        ini[a] = (char)('A' + a % 26);
    char buf[512];
    for (size_t a = 0; a < m; a++)
        for (size_t b = a + 1; b < m; b++) {
            const char *na = sets[a]->name, *nb = sets[b]->name;
            snprintf(buf, sizeof buf, "%cv%c", ini[a], ini[b]);
            add_col(t, buf, CC_REL);
            snprintf(buf, sizeof buf, "%cv%c_sig", ini[a], ini[b]);
            add_col(t, buf, CC_SIG);
            snprintf(buf, sizeof buf, "%cv%c_q", ini[a], ini[b]);
            add_col(t, buf, CC_P);
            snprintf(buf, sizeof buf, "%cv%c: %s versus %s, floor((%s / %s - 1) * 100) %%", ini[a],
                     ini[b], na, nb, na, nb);
            add_legend(t, buf);
        }
    free(ini);
}

/* A row's key: the point fields it is matched on. */
struct row_key {
    char f[COMPARE_NF][48];
};

/* The rows: the union of the sets' keys (the fields in use), in order of
 * first appearance. */
static struct row_key *row_keys(const struct compare_set **sets, size_t m, const int *use,
                                size_t *nrows)
{
    size_t n = 0, cap = 0;
    struct row_key *keys = NULL;
    for (size_t a = 0; a < m; a++) {
        const struct compare_set *s = sets[a];
        for (size_t p = 0; p < s->n; p++) {
            int seen = 0;
            for (size_t r = 0; r < n && !seen; r++) {
                seen = 1;
                for (int k = 0; k < COMPARE_NF && seen; k++)
                    seen = !use[k] || !strcmp(keys[r].f[k], s->pts[p].f[k]);
            }
            if (seen)
                continue;
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                keys = xrealloc(keys, cap * sizeof *keys);
            }
            memcpy(keys[n++].f, s->pts[p].f, sizeof keys[0].f);
        }
    }
    *nrows = n;
    return keys;
}

/* Whether every median of the sets is a whole number (see fmt_value). */
static int all_whole(const struct compare_set **sets, size_t m)
{
    for (size_t a = 0; a < m; a++)
        for (size_t q = 0; q < sets[a]->n; q++) {
            const struct compare_point *cp = &sets[a]->pts[q];
            double v = cp->n ? stats_median(cp->v, cp->n) : 0;
            if (v != floor(v))
                return 0;
        }
    return 1;
}

/* The table's tests: each a p-value and the cells its mark and q go into,
 * filled once the whole table's q-values are known (Benjamini-Hochberg). */
struct tests {
    double *p;
    char ***cell; /* cell[i]: the pair's three cells of test i */
    size_t n, cap;
};

/* A pair's three cells: relative %, significance mark, q; a and b NULL
 * where missing, ma and mb their medians. The mark and q wait for the
 * table's other tests (marks). */
static void pair_cells(char **cell, const struct compare_point *a, const struct compare_point *b,
                       double ma, double mb, struct tests *ts)
{
    char buf[64];
    long long rel;
    struct stats_welch w;
    /* A relative % past what a long long holds (a median of 1e67
     * against 0.5, found by fuzzing) is shown as N/A: stats_relpct
     * would convert it to long long, which is undefined. */
    if (!a || !b || !relpct_fits(ma, mb) || stats_relpct(ma, mb, &rel) < 0) {
        cell[0] = xstrdup("N/A");
        cell[1] = xstrdup("");
        cell[2] = xstrdup("");
        return;
    }
    snprintf(buf, sizeof buf, "%+lld", rel);
    cell[0] = xstrdup(buf);
    /* Welch over independent runs only: samples inside one run
     * share its level, and testing them as independent marked
     * half the rows of an A/A comparison significant. */
    if (stats_welch(a->rep, a->nrep, b->rep, b->nrep, &w) == 0) {
        if (ts->n == ts->cap) {
            ts->cap = ts->cap ? 2 * ts->cap : 64;
            ts->p = xrealloc(ts->p, ts->cap * sizeof *ts->p);
            ts->cell = xrealloc(ts->cell, ts->cap * sizeof *ts->cell);
        }
        ts->p[ts->n] = w.p;
        ts->cell[ts->n++] = cell;
        cell[1] = cell[2] = NULL;
    } else {
        size_t n = a->nrep < b->nrep ? a->nrep : b->nrep;
        snprintf(buf, sizeof buf, "no test (n=%zu)", n);
        cell[1] = xstrdup(buf);
        cell[2] = xstrdup("");
    }
}

/* One row's cells: its key fields, each set's median (N/A where the set
 * has no samples there), then each pair's cells. */
static void fill_row(char **row, const struct compare_set **sets, size_t m, const int *use,
                     char key[COMPARE_NF][48], int whole, struct tests *ts)
{
    const struct compare_point **pt = xcalloc(m, sizeof *pt);
    double *med = xcalloc(m, sizeof *med);
    size_t c = 0;
    for (int k = 0; k < COMPARE_NF; k++)
        if (use[k])
            row[c++] = xstrdup(key[k]);
    for (size_t a = 0; a < m; a++) {
        pt[a] = find_point(sets[a], use, key);
        if (pt[a] && pt[a]->n == 0)
            pt[a] = NULL;
        if (pt[a])
            med[a] = stats_median(pt[a]->v, pt[a]->n);
        row[c++] = pt[a] ? fmt_value(med[a], whole) : xstrdup("N/A");
    }
    for (size_t a = 0; a < m; a++)
        for (size_t b = a + 1; b < m; b++, c += 3)
            pair_cells(row + c, pt[a], pt[b], med[a], med[b], ts);
    free(med);
    free(pt);
}

/* One family for the whole table: a cell is marked where its difference
 * holds at COMPARE_FDR false discoveries over every test in the table. */
static void marks(struct tests *ts)
{
    double *q = xcalloc(ts->n + 1, sizeof *q);
    stats_bh(ts->p, ts->n, q);
    for (size_t i = 0; i < ts->n; i++) {
        char buf[32];
        ts->cell[i][1] = xstrdup(q[i] <= COMPARE_FDR ? "*" : "~");
        snprintf(buf, sizeof buf, "%.4g", q[i]);
        ts->cell[i][2] = xstrdup(buf);
    }
    free(q);
    free(ts->p);
    free(ts->cell);
}

void compare_build(const struct compare_sets *ss, enum compare_kind kind, struct compare_table *t)
{
    memset(t, 0, sizeof *t);
    size_t m = 0;
    const struct compare_set **sets = xcalloc(ss->n, sizeof *sets);
    for (size_t i = 0; i < ss->n; i++)
        if (ss->s[i].kind == kind)
            sets[m++] = &ss->s[i];
    if (m == 0) {
        free(sets);
        return;
    }
    int use[COMPARE_NF];
    key_columns(t, sets, m, kind, use);
    for (size_t a = 0; a < m; a++)
        add_col(t, sets[a]->name, CC_VALUE);
    pair_columns(t, sets, m);
    add_legend(t, "values are medians over repeats/samples; N/A: missing on a side");
    if (m > 1)
        add_legend(t, "*: the difference holds at a 5% false-discovery rate over every "
                      "test in this table (Welch's t-test over repeats, Benjamini-Hochberg; "
                      "_q is the adjusted p-value); ~: no difference proven at that rate; no test "
                      "(n=K): fewer than 2 independent runs (repeats) on a side. The test is "
                      "over runs, never over the samples inside one run");
    struct row_key *keys = row_keys(sets, m, use, &t->nrows);
    int whole = all_whole(sets, m);
    t->cell = xcalloc(t->nrows * t->ncols + 1, sizeof *t->cell);
    struct tests ts = {0};
    for (size_t r = 0; r < t->nrows; r++)
        fill_row(t->cell + r * t->ncols, sets, m, use, keys[r].f, whole, &ts);
    marks(&ts);
    free(keys);
    free(sets);
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
    snprintf(out, len, "%s%s%s", v, strlen(mark) > 1 ? " " : "", mark);
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

void compare_render_csv(const struct compare_table *t, struct sbuf *b)
{
    for (size_t r = (size_t)-1; r == (size_t)-1 || r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            const char *v = r == (size_t)-1 ? t->head[c] : t->cell[r * t->ncols + c];
            if (c)
                sbuf_add(b, ",", 1);
            if (r != (size_t)-1 && t->type[c] == CC_SIG)
                v = !strcmp(v, "*") ? "significant" : !strcmp(v, "~") ? "no difference proven" : "";
            csv_put(b, v);
        }
        sbuf_add(b, "\n", 1);
    }
}
