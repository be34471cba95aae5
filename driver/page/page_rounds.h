/*
 * page_rounds.h - the page's section on a study's variants and runs: what
 * each variant is, the runs in the order they ran with their start times,
 * every level's throughput against the clock, and the target interval's
 * outcome. Nothing when the page's directories are not a study's variants.
 */
#ifndef DBSCALE_PAGE_ROUNDS_H
#define DBSCALE_PAGE_ROUNDS_H

#include "analysis/curves.h"
#include "core/util.h"

void page_rounds(const struct curves *cv, struct sbuf *b);

#endif
