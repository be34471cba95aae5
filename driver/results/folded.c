/*
 * folded.c - folded stacks read back: the text kept whole (the flame graph
 * draws it), the leaf of each stack summed into a function's self time.
 *
 * The one idea: a stack's count is the last word of its line, everything
 * before it (spaces allowed) is the stack; a line that does not end in a
 * count is skipped rather than trusted. Files go through the results opener.
 */
#include "results/folded.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/input.h"

double folded_line(const char *line, size_t n, size_t *len)
{
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r' || line[n - 1] == ' '))
        n--;
    size_t sp = n;
    while (sp && line[sp - 1] != ' ')
        sp--;
    if (!sp || sp == n || sp < 2)
        return -1;
    char num[32];
    size_t nl = n - sp < sizeof num - 1 ? n - sp : sizeof num - 1;
    memcpy(num, line + sp, nl);
    num[nl] = '\0';
    char *end;
    double c = strtod(num, &end);
    if (*end || !(c > 0) || c > 1e12)
        return -1;
    *len = sp - 1;
    return c;
}

static void add_self(struct folded *f, const char *leaf, size_t n, double c)
{
    int kernel = n > 4 && !memcmp(leaf + n - 4, "_[k]", 4);
    if (kernel)
        n -= 4;
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)n, leaf);
    for (size_t i = 0; i < f->nfn; i++)
        if (f->fn[i].kernel == kernel && !strcmp(f->fn[i].name, name)) {
            f->fn[i].self += c;
            return;
        }
    if (f->nfn == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 64;
        f->fn = xrealloc(f->fn, f->cap * sizeof *f->fn);
    }
    struct folded_fn *x = &f->fn[f->nfn++];
    memset(x, 0, sizeof *x);
    snprintf(x->name, sizeof x->name, "%s", name);
    x->kernel = kernel;
    x->self = c;
}

void folded_add_text(struct folded *f, const char *text)
{
    for (const char *l = text; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l), len;
        double c = folded_line(l, n, &len);
        if (c > 0) {
            sbuf_add(&f->text, l, n);
            sbuf_add(&f->text, "\n", 1);
            const char *leaf = l + len;
            while (leaf > l && leaf[-1] != ';')
                leaf--;
            add_self(f, leaf, (size_t)(l + len - leaf), c);
            f->total += c;
        }
        l = e ? e + 1 : NULL;
    }
}

int folded_add_file(struct folded *f, const char *path, char *err, size_t errlen)
{
    FILE *in = results_input_open(path, err, errlen);
    if (!in)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, in)) >= 0)
        folded_add_text(f, line);
    free(line);
    fclose(in);
    return 0;
}

static int by_self(const void *a, const void *b)
{
    double x = ((const struct folded_fn *)a)->self, y = ((const struct folded_fn *)b)->self;
    return (x < y) - (x > y);
}

void folded_sort(struct folded *f)
{
    qsort(f->fn, f->nfn, sizeof *f->fn, by_self);
}

double folded_self(const struct folded *f, const char *name, int kernel)
{
    for (size_t i = 0; i < f->nfn; i++)
        if (f->fn[i].kernel == kernel && !strcmp(f->fn[i].name, name))
            return f->fn[i].self;
    return 0;
}

void folded_free(struct folded *f)
{
    sbuf_free(&f->text);
    free(f->fn);
    memset(f, 0, sizeof *f);
}
