/*
 * verdict_json.h - the verdict as verdict.json: every point's class,
 * interval, q-value and minimum detectable effect, the curves' figures, the
 * limits and the explanations, for a CI job or a script to read. A figure
 * that was not measured is null.
 */
#ifndef DBSCALE_VERDICT_JSON_H
#define DBSCALE_VERDICT_JSON_H

#include "analysis/verdict.h"
#include "core/util.h"

/* v (built from cv) as one JSON object, indented, into out. */
void verdict_json(const struct verdict *v, const struct curves *cv, struct sbuf *out);

#endif
