/*
 * page_kernels.h - the page's kernel comparison: the directories given to
 * report (a `dbscale kernels` study's variants, or directories recorded
 * across real reboots) as kernel variants, each with its facts (the host's
 * record for a study's variant, its kernel.json otherwise) and its boots;
 * the reference table's relative-% columns for every pair of variants, at
 * every (workload, CPUs, threads) point and every kernel test, marked over
 * boots at a 5% false-discovery rate; and the SMP write-up's two sentences
 * with their intervals. All computed once, as the verdict's kernels part
 * (analysis/verdict.h over kvariants.h, ktable.h, kverdict.h); page.c places
 * it.
 */
#ifndef DBSCALE_PAGE_KERNELS_H
#define DBSCALE_PAGE_KERNELS_H

#include <stddef.h>

#include "analysis/curves.h"
#include "analysis/verdict.h"
#include "core/util.h"

/* At the top of the page: a warning when a variant ran under emulation
 * (TCG), or when the host's record says its vCPUs were not pinned or their
 * pinning failed in a boot. Nothing otherwise. */
void page_kernels_banner(const struct verdict *v, struct sbuf *b);
/* The section: nothing when no directory has a kernel.json or a study (or
 * v is NULL). */
void page_kernels(const struct curves *cv, const struct verdict *v, struct sbuf *b);

#endif
