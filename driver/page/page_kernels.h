/*
 * page_kernels.h - the page's kernel comparison: the directories given to
 * report (a `dbscale kernels` study's variants, or directories recorded
 * across real reboots) as kernel variants, each labelled from its
 * kernel.json; the reference table's relative-% columns for every pair of
 * variants, at every (workload, CPUs, threads) point and every kernel test;
 * and the SMP write-up's two sentences (SMP on one CPU against UP, the SMP
 * peak against UP's), computed. page.c places it.
 */
#ifndef DBSCALE_PAGE_KERNELS_H
#define DBSCALE_PAGE_KERNELS_H

#include <stddef.h>

#include "analysis/curves.h"
#include "core/util.h"

/* At the top of the page: a warning when a variant ran under emulation
 * (TCG) or on unpinned vCPUs. Nothing otherwise. */
void page_kernels_banner(const struct curves *cv, struct sbuf *b);
/* The section: nothing when no directory has a kernel.json. */
void page_kernels(const struct curves *cv, struct sbuf *b);

#endif
