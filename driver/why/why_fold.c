/*
 * why_fold.c - perf script's samples folded into stacks, as Brendan Gregg's
 * stackcollapse-perf.pl folds them: one line per distinct stack,
 * "comm;outermost;...;leaf count", kernel frames marked with "_[k]".
 *
 * The one idea: read perf script line by line and keep only a hash of
 * stacks, so a profile of any length folds in the memory of its distinct
 * stacks. perf script prints a sample as a header line (comm, tid, period)
 * and then one indented line per frame, leaf first ("addr sym (dso)"), and
 * a blank line; a symbol perf could not name is shown by its object's name
 * ("[postgres]"), C++ argument lists are cut, and ';' (the separator) in a
 * name becomes ':'. Pure text in, text out: unit-tested without perf.
 */
#include <stdlib.h>
#include <string.h>

#include "why/why_internal.h"

#define MAXFRAMES 128

struct stack {
    char *s;
    double n;
};

struct why_fold {
    char comm[64];
    char *frame[MAXFRAMES]; /* leaf first */
    int nframes, leaf_kernel, in_sample;
    struct stack *tab; /* open addressing */
    size_t cap, used;
    double samples, kernel;
};

struct why_fold *why_fold_new(void)
{
    struct why_fold *f = xcalloc(1, sizeof *f);
    f->cap = 1024;
    f->tab = xcalloc(f->cap, sizeof *f->tab);
    return f;
}

static unsigned long hash(const char *s)
{
    unsigned long h = 1469598103934665603UL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211UL;
    return h;
}

static void put(struct why_fold *f, char *s)
{
    if (f->used * 2 >= f->cap) {
        struct stack *old = f->tab;
        size_t oc = f->cap;
        f->cap *= 2;
        f->tab = xcalloc(f->cap, sizeof *f->tab);
        f->used = 0;
        for (size_t i = 0; i < oc; i++)
            if (old[i].s) {
                size_t j = hash(old[i].s) & (f->cap - 1);
                while (f->tab[j].s)
                    j = (j + 1) & (f->cap - 1);
                f->tab[j] = old[i];
                f->used++;
            }
        free(old);
    }
    size_t j = hash(s) & (f->cap - 1);
    while (f->tab[j].s && strcmp(f->tab[j].s, s) != 0)
        j = (j + 1) & (f->cap - 1);
    if (f->tab[j].s) {
        f->tab[j].n++;
        free(s);
    } else {
        f->tab[j].s = s;
        f->tab[j].n = 1;
        f->used++;
    }
}

static void end_sample(struct why_fold *f)
{
    if (f->in_sample && f->nframes > 0) {
        struct sbuf b = {0};
        sbuf_printf(&b, "%s", f->comm[0] ? f->comm : "?");
        for (int i = f->nframes - 1; i >= 0; i--)
            sbuf_printf(&b, ";%s", f->frame[i]);
        put(f, b.s);
        f->samples++;
        f->kernel += f->leaf_kernel;
    }
    for (int i = 0; i < f->nframes; i++)
        free(f->frame[i]);
    f->nframes = 0;
    f->in_sample = 0;
    f->leaf_kernel = 0;
}

/* "    ffffffff8225a101 do_syscall_64+0x41 ([kernel.kallsyms])" */
static void frame(struct why_fold *f, const char *l)
{
    while (*l == ' ' || *l == '\t')
        l++;
    const char *sp = strchr(l, ' ');
    if (!sp || f->nframes >= MAXFRAMES)
        return;
    unsigned long long addr = strtoull(l, NULL, 16);
    const char *sym = sp + 1, *end = sym + strlen(sym);
    while (end > sym && (end[-1] == '\n' || end[-1] == ' '))
        end--;
    char dso[128] = "";
    const char *open = NULL;
    if (end > sym && end[-1] == ')') /* the last "(...)" is the object */
        for (const char *p = end - 1; p > sym; p--)
            if (*p == '(' && p[-1] == ' ') {
                open = p;
                break;
            }
    if (open) {
        snprintf(dso, sizeof dso, "%.*s", (int)(end - open - 2), open + 1);
        end = open - 1;
    }
    int kernel = strstr(dso, "kernel.kallsyms") != NULL || !strncmp(dso, "[kernel", 7) ||
                 addr >= 0xffff800000000000ULL;
    char name[256];
    size_t n = (size_t)(end - sym);
    if (n >= sizeof name - 8)
        n = sizeof name - 8;
    memcpy(name, sym, n);
    name[n] = '\0';
    char *plus = strstr(name, "+0x");
    if (plus)
        *plus = '\0';
    char *paren = strchr(name, '(');
    if (paren && paren > name)
        *paren = '\0';
    if (!name[0] || !strcmp(name, "[unknown]")) {
        const char *base = strrchr(dso, '/');
        base = base ? base + 1 : dso;
        if (*base && strcmp(base, "[unknown]") != 0)
            snprintf(name, sizeof name, "[%.200s]", base[0] == '[' ? base + 1 : base);
        else
            snprintf(name, sizeof name, "[unknown]");
        char *rb = strstr(name, "]]");
        if (rb)
            rb[1] = '\0';
    }
    for (char *p = name; *p; p++)
        if (*p == ';')
            *p = ':';
    if (kernel)
        strcat(name, "_[k]");
    if (f->nframes == 0)
        f->leaf_kernel = kernel;
    f->frame[f->nframes++] = xstrdup(name);
}

void why_fold_line(struct why_fold *f, const char *line)
{
    if (line[0] == '\n' || line[0] == '\0') {
        end_sample(f);
        return;
    }
    if (line[0] == ' ' || line[0] == '\t') {
        if (f->in_sample)
            frame(f, line);
        return;
    }
    /* a header: "comm tid period"; comm may hold spaces, the last two
     * fields are numbers */
    end_sample(f);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", line);
    buf[strcspn(buf, "\n")] = '\0';
    for (int k = 0; k < 2; k++) {
        size_t len = strlen(buf);
        while (len && buf[len - 1] == ' ')
            buf[--len] = '\0';
        char *sp = strrchr(buf, ' ');
        if (!sp)
            return; /* not a header perf would print */
        *sp = '\0';
    }
    size_t len = strlen(buf);
    while (len && buf[len - 1] == ' ')
        buf[--len] = '\0';
    for (char *p = buf; *p; p++)
        if (*p == ';' || *p == ' ')
            *p = *p == ';' ? ':' : '_';
    snprintf(f->comm, sizeof f->comm, "%s", buf);
    f->in_sample = 1;
}

static int by_stack(const void *a, const void *b)
{
    return strcmp(((const struct stack *)a)->s, ((const struct stack *)b)->s);
}

char *why_fold_done(struct why_fold *f, double *samples, double *kernel)
{
    end_sample(f);
    size_t n = 0;
    for (size_t i = 0; i < f->cap; i++)
        if (f->tab[i].s)
            f->tab[n++] = f->tab[i];
    qsort(f->tab, n, sizeof *f->tab, by_stack);
    struct sbuf b = {0};
    for (size_t i = 0; i < n; i++) {
        sbuf_printf(&b, "%s %.0f\n", f->tab[i].s, f->tab[i].n);
        free(f->tab[i].s);
    }
    *samples = f->samples;
    *kernel = f->kernel;
    free(f->tab);
    free(f);
    return b.s ? b.s : xstrdup("");
}
