/*
 * studydir.c - a study directory as `dbscale kernels` leaves it: kernels.json
 * naming the variants, one results directory per variant beside it. Read
 * back as the list of the variants' directories that hold results, in the
 * study's order.
 *
 * The one idea: a study stands for its variants, so report and the study's
 * own page read the same directories. A name in kernels.json is data: one
 * that would lead outside the study is passed over.
 */
#include "results/studydir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "core/util.h"
#include "results/input.h"

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

int studydir_variants(const char *dir, char ***dirs, size_t *n, char *err, size_t errlen)
{
    char path[1100];
    *n = 0;
    *dirs = xcalloc(STUDYDIR_MAX + 1, sizeof **dirs);
    snprintf(path, sizeof path, "%s/kernels.json", dir);
    if (access(path, F_OK) < 0)
        return 0;
    json_t *o = results_input_json(path, err, errlen);
    if (!o)
        return -1;
    json_t *vs = json_object_get(o, "variants");
    if (!json_is_array(vs)) {
        snprintf(err, errlen, "%s: no \"variants\" list", path);
        json_decref(o);
        return -1;
    }
    size_t i;
    json_t *v;
    json_array_foreach(vs, i, v)
    {
        const char *name = json_string_value(v);
        if (!name || !*name || strchr(name, '/') || !strcmp(name, "..") || *n == STUDYDIR_MAX)
            continue; /* never outside the study */
        char sub[1200];
        snprintf(sub, sizeof sub, "%s/%s", dir, name);
        if (holds_results(sub))
            (*dirs)[(*n)++] = xstrdup(sub);
    }
    json_decref(o);
    return 0;
}

void studydir_free(char **dirs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(dirs[i]);
    free(dirs);
}
