/*
 * verdict_text.h - the verdict as plain text fit to mail or a CI log: the
 * gate and why, every point found worse or better with its interval,
 * q-value, repeats and what changed most, what could not be decided, the
 * curves' figures, and where each curve stops scaling and why.
 */
#ifndef DBSCALE_VERDICT_TEXT_H
#define DBSCALE_VERDICT_TEXT_H

#include "analysis/verdict.h"
#include "core/util.h"

/* The summary of v (built from cv) into out. */
void verdict_text(const struct verdict *v, const struct curves *cv, struct sbuf *out);
/* One point's line: "-12% tps at 8 threads on 2 CPUs (smp), 95% CI
 * -15..-9%, q=0.004, 5 vs 5 repeats" (no newline). */
void verdict_point_line(const struct verdict *v, const struct curves *cv, size_t i,
                        struct sbuf *out);
/* What changed most at an explained point: "lock waits 120 -> 372 us/txn
 * (3.1x); ..." (no newline). */
void verdict_explain_line(const struct verdict_explain *x, struct sbuf *out);

#endif
