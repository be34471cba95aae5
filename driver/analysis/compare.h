/*
 * compare.h - results sets side by side: match the points of sets loaded by
 * compare_load.h by key, and build a table of medians, relative % per pair
 * and marks held at a false-discovery rate, rendered as text, Markdown or CSV.
 */
#ifndef DBSCALE_COMPARE_H
#define DBSCALE_COMPARE_H

#include <stddef.h>

#include "analysis/compare_load.h"
#include "core/util.h"

enum compare_col { CC_KEY, CC_VALUE, CC_REL, CC_SIG, CC_P };

/* The false-discovery rate a table's marks hold at, over all its tests. */
#define COMPARE_FDR 0.05

/* A built table: ncols named columns of text cells; REL/SIG/P come in threes
 * per pair of sets (i < j). SIG is "*" (the difference holds at COMPARE_FDR
 * over every test of the table: Welch's t-test over compare_point.rep,
 * Benjamini-Hochberg), "~" (no difference proven at that rate) or "no test (n=K)"
 * (fewer than 2 independent runs on a side); "" when REL is N/A. P is the
 * test's q-value (the adjusted p). */
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
