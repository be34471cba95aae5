/*
 * page_verdict.h - the verdict on the page: its section at the top (the
 * gate, the points found worse or better, the undecided, the curves'
 * figures, each curve's limit, the folded grid and differential flame
 * graphs) and the clause the headline carries.
 */
#ifndef DBSCALE_PAGE_VERDICT_H
#define DBSCALE_PAGE_VERDICT_H

#include <stddef.h>

#include "analysis/curves.h"
#include "analysis/verdict.h"
#include "core/util.h"

/* The section (nothing for a single directory without a curve to judge). */
void page_verdict(const struct curves *cv, const struct verdict *v, struct sbuf *b);
/* "; lock-bound at the knee (1 -> 2 threads): row locks (Lock:transactionid)"
 * for the headline of curve, plain text; nothing when v is NULL. */
void page_verdict_lead(const struct verdict *v, const struct curves *cv, size_t curve,
                       struct sbuf *s);

#endif
