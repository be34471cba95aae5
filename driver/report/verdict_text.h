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
#endif
