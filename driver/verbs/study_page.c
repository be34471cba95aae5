/*
 * study_page.c - a study's page and its verdict.json, written side by side
 * from one verdict, so what the page concludes and what a CI job reads from
 * the JSON are the same value.
 *
 * The one idea: the verbs that show results (report, sweep at its end,
 * kernels) all write through here; the page and the JSON only render.
 */
#include "verbs/study_page.h"

#include <stdio.h>
#include <string.h>

#include "analysis/verdict.h"
#include "core/util.h"
#include "page/page.h"
#include "report/verdict_json.h"

void study_page_json_path(const char *html, char *out, size_t len)
{
    const char *slash = strrchr(html, '/');
    const char *base = slash ? slash + 1 : html;
    size_t dir = (size_t)(base - html), bl = strlen(base);
    if (!strcmp(base, "report.html"))
        snprintf(out, len, "%.*sverdict.json", (int)dir, html);
    else if (bl > 5 && !strcmp(base + bl - 5, ".html"))
        snprintf(out, len, "%.*s.verdict.json", (int)(dir + bl - 5), html);
    else
        snprintf(out, len, "%s.verdict.json", html);
}

int study_page_write(const struct curves *cv, const char *html, char *err, size_t errlen)
{
    struct verdict v;
    verdict_build(cv, NULL, &v);
    int rc = page_write(cv, &v, html, err, errlen);
    if (rc == 0) {
        struct sbuf js = {0};
        char path[1200];
        verdict_json(&v, cv, &js);
        study_page_json_path(html, path, sizeof path);
        int w = write_file_atomic(path, js.s, js.len);
        if (w < 0) {
            snprintf(err, errlen, "%s: %s", path, strerror(-w));
            rc = -1;
        }
        sbuf_free(&js);
    }
    verdict_free(&v);
    return rc;
}

int study_page_write_dirs(char **dirs, size_t n, const char *html, char *err, size_t errlen)
{
    struct curves_log log = {0};
    struct curves cv = {.log = &log};
    int rc = page_load(&cv, dirs, n);
    if (rc < 0)
        snprintf(err, errlen, "%s", log.err);
    else
        rc = study_page_write(&cv, html, err, errlen);
    sbuf_free(&log.out);
    sbuf_free(&log.warn);
    curves_free(&cv);
    return rc;
}

int study_page_write_dir(const char *dir, char *path, size_t pathlen, char *err, size_t errlen)
{
    char *paths[1] = {(char *)dir};
    snprintf(path, pathlen, "%s/report.html", dir);
    return study_page_write_dirs(paths, 1, path, err, errlen);
}
