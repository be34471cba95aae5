/*
 * page_headline.h - the page's answer in words: one sentence per curve, from
 * the figures curves.c computed (peak, speedup over the fewest CPUs, drop at the
 * highest thread count), and per compared directory its relative %.
 */
#ifndef DBSCALE_PAGE_HEADLINE_H
#define DBSCALE_PAGE_HEADLINE_H

#include <stddef.h>

#include "analysis/curves.h"

/* The sentence for curve i, plain text (the caller escapes it), e.g.
 * "PostgreSQL 15.8 oltp_read_only smp on 1 -> 2 CPUs: 1.3x at 8 threads;
 * peak 3834 tps at 4 threads, -15% at 8". */
void page_headline(const struct curves *cv, size_t i, char *buf, size_t len);

/* "mysql-sweep against pgsql-sweep, smp on 2 CPUs: -21% at peak, -20% at 8
 * threads"; "" when curve i has no match. */
void page_compare_sentence(const struct curves *cv, size_t i, char *buf, size_t len);

#endif
