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
 * Welch's t-test then work the same for all of them, and the table is built
 * once as text cells that the terminal, Markdown and CSV renderers only lay
 * out.
 *
 * Never claim a difference without evidence: the test is over independent
 * runs (repeats), never over the samples inside one run, a mark needs at
 * least two runs on each side ("no test (n=1)" otherwise), and "no
 * difference proven" is said out loud.
 */
#include "results/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/csv.h"
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
    /* A pair is named by the sets' initials (FvD), or by letters A, B...
     * when two sets share an initial (6.1.0-57-amd64.smp, 6.1.0-57-amd64.up) */
    char *ini = xcalloc(m, 1);
    int clash = 0;
    for (size_t a = 0; a < m; a++) {
        ini[a] = ss->s[idx[a]].name[0];
        for (size_t b = 0; b < a; b++)
            clash |= ini[a] == ini[b];
    }
    for (size_t a = 0; clash && a < m; a++)
        ini[a] = (char)('A' + a % 26);
    char buf[512];
    for (size_t a = 0; a < m; a++)
        for (size_t b = a + 1; b < m; b++) {
            const char *na = ss->s[idx[a]].name, *nb = ss->s[idx[b]].name;
            snprintf(buf, sizeof buf, "%cv%c", ini[a], ini[b]);
            add_col(t, buf, CC_REL);
            snprintf(buf, sizeof buf, "%cv%c_sig", ini[a], ini[b]);
            add_col(t, buf, CC_SIG);
            snprintf(buf, sizeof buf, "%cv%c_p", ini[a], ini[b]);
            add_col(t, buf, CC_P);
            snprintf(buf, sizeof buf, "%cv%c: %s versus %s, floor((%s / %s - 1) * 100) %%", ini[a],
                     ini[b], na, nb, na, nb);
            add_legend(t, buf);
        }
    free(ini);
    add_legend(t, "values are medians over repeats/samples; N/A: missing on a side");
    if (m > 1)
        add_legend(t, "*: difference significant at 95% (Welch's t-test); "
                      "~: no difference proven at 95%; no test (n=K): fewer than 2 "
                      "independent runs (repeats) on a side. The test is over runs, "
                      "never over the samples inside one run");

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
                /* A relative % past what a long long holds (a median of 1e67
                 * against 0.5, found by fuzzing) is shown as N/A: stats_relpct
                 * would convert it to long long, which is undefined. */
                if (!pt[a] || !pt[b] || !relpct_fits(med[a], med[b]) ||
                    stats_relpct(med[a], med[b], &rel) < 0) {
                    row[c++] = xstrdup("N/A");
                    row[c++] = xstrdup("");
                    row[c++] = xstrdup("");
                    continue;
                }
                snprintf(buf, sizeof buf, "%+lld", rel);
                row[c++] = xstrdup(buf);
                /* Welch over independent runs only: samples inside one run
                 * share its level, and testing them as independent marked
                 * half the rows of an A/A comparison significant. */
                if (stats_welch(pt[a]->rep, pt[a]->nrep, pt[b]->rep, pt[b]->nrep, &w) == 0) {
                    row[c++] = xstrdup(w.significant ? "*" : "~");
                    snprintf(buf, sizeof buf, "%.4g", w.p);
                    row[c++] = xstrdup(buf);
                } else {
                    size_t n = pt[a]->nrep < pt[b]->nrep ? pt[a]->nrep : pt[b]->nrep;
                    snprintf(buf, sizeof buf, "no test (n=%zu)", n);
                    row[c++] = xstrdup(buf);
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
