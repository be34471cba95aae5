/*
 * studydir.c - a study directory as `dbscale kernels` leaves it: kernels.json
 * naming the variants, one results directory per variant beside it. Read
 * back as the list of the variants' directories that hold results, in the
 * study's order.
 *
 * The one idea: a study stands for its variants, so report and the study's
 * own page read the same directories. A name in kernels.json is data, read
 * through studyjson.c, which refuses a file naming a variant no study makes
 * (one that would lead outside the study): never a path built from an
 * unchecked name. The variants past STUDYDIR_MAX are counted, never dropped
 * without a word.
 */
#include "results/studydir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util.h"
#include "results/studyjson.h"

static int holds_results(const char *dir)
{
    static const char *const files[] = {"results.csv", "micro.csv", "fs.csv"};
    for (size_t i = 0; i < 3; i++) {
        char path[1200];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
            return 1;
    }
    return 0;
}

int studydir_variants(const char *dir, char ***dirs, size_t *n, size_t *beyond, char *err,
                      size_t errlen)
{
    *n = 0;
    if (beyond)
        *beyond = 0;
    *dirs = xcalloc(STUDYDIR_MAX + 1, sizeof **dirs);
    struct studyjson s;
    int rc = studyjson_read(dir, &s, err, errlen);
    if (rc < 0) { /* an unreadable or hostile kernels.json */
        free(*dirs);
        *dirs = NULL;
        return -1;
    }
    if (rc == 0)
        return 0; /* no study */
    for (size_t i = 0; i < s.nvariants; i++) {
        char sub[1200];
        snprintf(sub, sizeof sub, "%s/%s", dir, s.variants[i].name);
        if (!holds_results(sub))
            continue;
        if (*n < STUDYDIR_MAX)
            (*dirs)[(*n)++] = xstrdup(sub);
        else if (beyond)
            (*beyond)++;
    }
    studyjson_free(&s);
    return 0;
}

void studydir_free(char **dirs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(dirs[i]);
    free(dirs);
}
