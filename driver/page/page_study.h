/*
 * page_study.h - the page's study section (machine, server, dbscale, the
 * command that reproduces the study) and that command on its own.
 */
#ifndef DBSCALE_PAGE_STUDY_H
#define DBSCALE_PAGE_STUDY_H

#include "analysis/curves.h"
#include "core/util.h"

/* The sweep's option table, for the command that reproduces a study (the
 * verbs that write pages give it; it stays theirs and must outlive the
 * writing; NULL, 0 forgets it). meta.json is data anyone may have edited:
 * only names in the table reach the command. */
struct optdef;
void page_known_options(const struct optdef *defs, size_t n);

/* The study: one block per results directory from its meta.json. */
void page_study(const struct curves *cv, struct sbuf *b);
/* Append "dbscale sweep WORKLOAD --k=v ..." that reproduces d: meta.json's
 * "command" (what the user set), or for an older meta.json its options
 * that differ from their defaults, of its engine only. Each word is
 * quoted for a POSIX shell; a name that is no known option (for a script's
 * sweep: not shaped like one), a password or --out is left out and
 * counted in *left_out. Plain text: the caller escapes it. 0, or -1 when
 * meta.json names no workload or options. */
int page_command(const struct curves_dir *d, struct sbuf *cmd, int *left_out);

#endif
