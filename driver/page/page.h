/*
 * page.h - `dbscale report`: one self-contained HTML page per study (inline
 * CSS and SVG, no scripts, nothing fetched) that a user can mail or attach to
 * a bug report: the answer in words, the graphs, the tables, the warnings,
 * the machine and the command that reproduces the study.
 */
#ifndef DBSCALE_PAGE_H
#define DBSCALE_PAGE_H

#include "analysis/curves.h"
#include "analysis/verdict.h"
#include "core/util.h"

/* Read the results directories as `plot` does (curves_load, then
 * curves_build: curves, CPU scaling, labels, kernel baseline) without
 * drawing. cv->log must be set; 0, or -1 with the reason in cv->log->err. */
int page_load(struct curves *cv, char **paths, size_t n);
/* The whole page for what page_load() read, with its verdict (built from
 * the same curves; NULL: none, the page then shows only the figures). */
void page_render(const struct curves *cv, const struct verdict *v, struct sbuf *html);
/* page_render() written atomically to path. 0, or -1 with the reason in err. */
int page_write(const struct curves *cv, const struct verdict *v, const char *path, char *err,
               size_t errlen);

#endif
