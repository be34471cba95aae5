/*
 * why_result.c - a level's result as the collectors fill it: wait rows
 * appended, named counters summed on the way (the engines' event tables),
 * and the whole freed.
 *
 * The one idea: a collector only appends to the result it is handed, so
 * the runner (why.c) decides when a level's figures exist and what of them
 * is kept. Every collector calls down into this file; it calls none of
 * them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "why/why_internal.h"

double *why_counts_at(struct why_counts *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->name[i], name))
            return &c->v[i];
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 16;
        c->name = xrealloc(c->name, (size_t)c->cap * sizeof *c->name);
        c->v = xrealloc(c->v, (size_t)c->cap * sizeof *c->v);
    }
    snprintf(c->name[c->n], sizeof c->name[0], "%s", name);
    c->v[c->n] = 0;
    return &c->v[c->n++];
}

void why_counts_free(struct why_counts *c)
{
    free(c->name);
    free(c->v);
    memset(c, 0, sizeof *c);
}

struct why_wait *why_add_wait(struct why_result *r, const char *source, const char *event,
                              const char *cls)
{
    r->wait = xrealloc(r->wait, (size_t)(r->nwait + 1) * sizeof *r->wait);
    struct why_wait *x = &r->wait[r->nwait++];
    memset(x, 0, sizeof *x);
    snprintf(x->source, sizeof x->source, "%s", source);
    snprintf(x->event, sizeof x->event, "%s", event);
    snprintf(x->cls, sizeof x->cls, "%s", cls);
    return x;
}

void why_result_free(struct why_result *r)
{
    free(r->cpu);
    free(r->wait);
    free(r->folded);
    memset(r, 0, sizeof *r);
}
