/*
 * page_warn.h - where the page's figures are weak: wide spread over repeats,
 * a superlinear point, no meaningful USL fit, client and server sharing CPUs,
 * a level whose server was mostly idle, a level marked disturbed.
 */
#ifndef DBSCALE_PAGE_WARN_H
#define DBSCALE_PAGE_WARN_H

#include "analysis/curves.h"
#include "core/util.h"

#define PAGE_WARN_SPREAD 0.10 /* sd over mean above which a point is "wide spread" */
#define PAGE_WARN_IDLE   50.0 /* server idle % above which a level was "mostly idle" */

/* Append one plain-text line per warning ("c1 up, 1 CPU: ..."), '\n' ended.
 * Returns the number of lines appended. */
size_t page_warnings(const struct curves *cv, struct sbuf *lines);

#endif
