/*
 * compare.h - results sets side by side: load sets (results dirs, results or
 * micro CSVs, wide TSVs like the will-it-scale reference), match their points
 * by key, and build a table of medians, relative % per pair and Welch marks.
 * plot reuses the loader for the kernel baseline (micro.csv).
 */
#ifndef DBSCALE_COMPARE_H
#define DBSCALE_COMPARE_H

#include <stddef.h>

#include "util.h"

enum compare_kind { COMPARE_RESULTS, COMPARE_MICRO, COMPARE_NKINDS };

/* Key fields: results engine,workload,variant,cpus,threads;
 * micro test,mode,tasks,cpus,variant. */
#define COMPARE_NF 5

struct compare_point {
    char f[COMPARE_NF][48];
    double *v; /* samples: tps per repeat, or ops/s per micro sample */
    size_t n, cap;
};

struct compare_set {
    char name[64];
    char path[512]; /* what it was read from */
    enum compare_kind kind;
    struct compare_point *pts;
    size_t n;
};

struct compare_sets {
    struct compare_set *s;
    size_t n;
};

/* Load one argument, appending to ss: a results dir gives a set from
 * results.csv and one from micro.csv when present; FILE.csv one set; FILE.tsv
 * one set per raw column. 0, or -1 with a message naming file and line. */
int compare_load(struct compare_sets *ss, const char *arg, char *err, size_t errlen);
/* Make set names unique among sets of a kind ("a/results", not two "results"). */
void compare_name_sets(struct compare_sets *ss);
void compare_sets_free(struct compare_sets *ss);

enum compare_col { CC_KEY, CC_VALUE, CC_REL, CC_SIG, CC_P };

/* A built table: ncols named columns of text cells; REL/SIG/P come in threes
 * per pair of sets (i < j). SIG is "*" (significant at 95%), "~" (no
 * difference proven) or "" (fewer than 2 samples on a side). */
struct compare_table {
    size_t nrows, ncols;
    char **head;
    enum compare_col *type;
    char **cell; /* nrows * ncols, row-major */
    char **legend;
    size_t nlegend;
};

/* Table of the sets of one kind (0 rows when none). */
void compare_build(const struct compare_sets *ss, enum compare_kind kind, struct compare_table *t);
void compare_table_free(struct compare_table *t);
void compare_render_text(const struct compare_table *t, struct sbuf *b);
void compare_render_md(const struct compare_table *t, struct sbuf *b);
void compare_render_csv(const struct compare_table *t, struct sbuf *b);

#endif
