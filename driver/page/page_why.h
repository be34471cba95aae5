/*
 * page_why.h - the page's "why" section: per curve, where the server's time
 * went per transaction at every thread count (the CPU split, lock, I/O and
 * client waits, the largest wait events), a sentence at the knee built
 * only from those figures, the kernel baseline's tests of the paths that
 * grew, and the curve's profiles (page_prof.h). The why files are the
 * verdict's evidence (analysis/evidence.h), read once.
 */
#ifndef DBSCALE_PAGE_WHY_H
#define DBSCALE_PAGE_WHY_H

#include "analysis/curves.h"
#include "analysis/evidence.h"
#include "core/util.h"
#include "analysis/whypoint.h"

/* The section for what page_load() read, from the why files the verdict's
 * evidence read (nothing when no directory has any, or ev is NULL). */
void page_why(const struct curves *cv, const struct evidence *ev, struct sbuf *b);

/* "per transaction, lock waits grew 3.1x (120 -> 372 us); ..." comparing
 * point a to point b, the category that grew most first, then the largest
 * growth among the wait events; every clause carries its numbers. Appends
 * nothing when neither point has figures. */
void page_why_compare(const struct whypoint *a, const struct whypoint *b, struct sbuf *s);

#endif
