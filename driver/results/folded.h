/*
 * folded.h - folded stacks ("comm;outer;...;leaf count" lines, kernel frames
 * ending in "_[k]", as profiles/NAME.folded holds them): read, merged, and
 * turned into the self time of each function. Pure over text, no drawing.
 */
#ifndef DBSCALE_FOLDED_H
#define DBSCALE_FOLDED_H

#include <stddef.h>

#include "core/util.h"

struct folded_fn {
    char name[128]; /* without the _[k] mark */
    int kernel;
    double self; /* samples with it as the leaf */
};

struct folded {
    struct sbuf text; /* every stack line read, for the flame graph */
    struct folded_fn *fn;
    size_t nfn, cap;
    double total; /* samples */
};

/* Add the stacks of file path (a missing or malformed line is skipped). 0,
 * or -1 with err when the file cannot be read. */
int folded_add_file(struct folded *f, const char *path, char *err, size_t errlen);
/* Add stacks from text (unit tests; folded_add_file's worker). */
void folded_add_text(struct folded *f, const char *text);
/* Functions by self samples, the largest first. */
void folded_sort(struct folded *f);
/* The self samples of name (kernel or not), 0 when absent. */
double folded_self(const struct folded *f, const char *name, int kernel);
void folded_free(struct folded *f);

/* A line "stack count": the count, and the stack's length in *len; -1 when
 * the line holds none. */
double folded_line(const char *line, size_t n, size_t *len);

#endif
