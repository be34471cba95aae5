/*
 * verdict_words.h - the verdict's words in plain text, for every view.
 */
#ifndef DBSCALE_VERDICT_WORDS_H
#define DBSCALE_VERDICT_WORDS_H

#include <stddef.h>

#include "analysis/verdict.h"
#include "core/util.h"

/* A relative change as "+12%", "n/a" when not measured. */
void verdict_pct(struct sbuf *b, double v);
/* One point's line: "-12% tps at 8 threads on 2 CPUs (smp), 95% CI
 * -15..-9%, q=0.004, 5 vs 5 repeats" (no newline). */
void verdict_point_line(const struct verdict *v, const struct curves *cv, size_t i,
                        struct sbuf *out);
/* What changed most at an explained point: "lock waits 120 -> 372 us/txn
 * (3.1x); ..." (no newline). */
void verdict_explain_line(const struct verdict_explain *x, struct sbuf *out);
/* The explanation of point i's (pair, threads), or NULL. */
const struct verdict_explain *verdict_explain_of(const struct verdict *v, size_t i);
/* Whether x was said already at a point of i's class listed before it (the
 * figures of one point share one explanation: say it once). */
int verdict_explain_said(const struct verdict *v, const struct verdict_explain *x, size_t i);

#endif
