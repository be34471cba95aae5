/*
 * page_tables.h - the page's tables (throughput with spread, speedup over the
 * fewest CPUs, latency, USL fit, relative % between directories). page.c lays
 * them out.
 */
#ifndef DBSCALE_PAGE_TABLES_H
#define DBSCALE_PAGE_TABLES_H

#include "analysis/curves.h"
#include "core/util.h"

void page_table_tps(const struct curves *cv, struct sbuf *b);
void page_table_speedup(const struct curves *cv, struct sbuf *b);
void page_table_latency(const struct curves *cv, struct sbuf *b);
void page_table_usl(const struct curves *cv, struct sbuf *b);
/* Relative % of each curve of a later directory against its match in the
 * first (curves_match); nothing when no curve matches. */
void page_table_relative(const struct curves *cv, struct sbuf *b);
#endif
