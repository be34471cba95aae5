/*
 * page_tables.h - the page's tables (throughput with spread, speedup over the
 * fewest CPUs, latency, USL fit, relative % between directories, kernel
 * baseline) and its study section (machine, server, dbscale, the command that
 * reproduces the study). page.c lays them out.
 */
#ifndef DBSCALE_PAGE_TABLES_H
#define DBSCALE_PAGE_TABLES_H

#include "plot.h"
#include "util.h"

void page_table_tps(const struct plot *p, struct sbuf *b);
void page_table_speedup(const struct plot *p, struct sbuf *b);
void page_table_latency(const struct plot *p, struct sbuf *b);
void page_table_usl(const struct plot *p, struct sbuf *b);
/* Relative % of each curve of a later directory against its match in the
 * first (page_match); nothing when no curve matches. */
void page_table_relative(const struct plot *p, struct sbuf *b);
/* The study: one block per results directory from its meta.json. */
void page_study(const struct plot *p, struct sbuf *b);
/* Append "dbscale sweep --k=v ..." from meta.json's options, each value
 * quoted for a POSIX shell; any key naming a password is left out. Plain
 * text: the caller escapes it. 0, or -1 when meta.json held no options. */
int page_command(const struct plot_dir *d, struct sbuf *cmd);

#endif
