/*
 * page_tables.h - the page's tables (throughput with spread, speedup over the
 * fewest CPUs, latency, USL fit, relative % between directories, kernel
 * baseline) and its study section (machine, server, dbscale, the command that
 * reproduces the study). page.c lays them out.
 */
#ifndef DBSCALE_PAGE_TABLES_H
#define DBSCALE_PAGE_TABLES_H

#include "results/plot.h"
#include "core/util.h"

void page_table_tps(const struct plot *p, struct sbuf *b);
void page_table_speedup(const struct plot *p, struct sbuf *b);
void page_table_latency(const struct plot *p, struct sbuf *b);
void page_table_usl(const struct plot *p, struct sbuf *b);
/* Relative % of each curve of a later directory against its match in the
 * first (page_match); nothing when no curve matches. */
void page_table_relative(const struct plot *p, struct sbuf *b);
/* The study: one block per results directory from its meta.json. */
void page_study(const struct plot *p, struct sbuf *b);
/* Append "dbscale sweep WORKLOAD --k=v ..." that reproduces d: meta.json's
 * "command" (what the user set), or for an older meta.json its options
 * that differ from their defaults, of its engine only. Each word is
 * quoted for a POSIX shell; a name that is no known option (for a script's
 * sweep: not shaped like one), a password or --out is left out and
 * counted in *left_out. Plain text: the caller escapes it. 0, or -1 when
 * meta.json names no workload or options. */
int page_command(const struct plot_dir *d, struct sbuf *cmd, int *left_out);

#endif
