/*
 * study_page.h - what `report`, a sweep's end and a kernels study write
 * about their results: the page (page/page.h) and, beside it, the verdict
 * as verdict.json (report/verdict_json.h), both from one verdict.
 */
#ifndef DBSCALE_STUDY_PAGE_H
#define DBSCALE_STUDY_PAGE_H

#include <stddef.h>

#include "analysis/curves.h"

/* The verdict.json beside a page: DIR/report.html -> DIR/verdict.json,
 * DIR/NAME.html -> DIR/NAME.verdict.json. */
void study_page_json_path(const char *html, char *out, size_t len);
/* The page of cv (loaded and built) at html, and its verdict.json beside
 * it. 0, or -1 with the reason in err. */
int study_page_write(const struct curves *cv, const char *html, char *err, size_t errlen);
/* The same for directories read here (a kernels study's variants). */
int study_page_write_dirs(char **dirs, size_t n, const char *html, char *err, size_t errlen);
/* What `sweep` writes at its end: DIR/report.html (its path into path) and
 * DIR/verdict.json. */
int study_page_write_dir(const char *dir, char *path, size_t pathlen, char *err, size_t errlen);

#endif
