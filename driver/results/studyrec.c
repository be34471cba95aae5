/*
 * studyrec.c - study.json read back, as the page and report need it.
 *
 * The one idea: the file is data a person may have edited, so every name
 * that becomes a path is checked (no '/', no leading '.' or '-'), every
 * string is copied bounded, and what is absent reads as empty: an older or
 * newer study.json still gives a page.
 *
 * Never write, never follow a name outside the study directory.
 */
#include "results/studyrec.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "core/util.h"
#include "results/input.h"

static void str(const json_t *o, const char *key, char *out, size_t len)
{
    const char *v = json_string_value(json_object_get(o, key));
    snprintf(out, len, "%s", v ? v : "");
}

static double num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : 0;
}

/* A name that stays inside the study: 1-71 of A-Za-z0-9._+-, not '.'/'-' first. */
static int name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 71 || s[0] == '.' || s[0] == '-')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("._+-", s[i]))
            return 0;
    return 1;
}

/* A JSON string's text, "" for anything else. */
static const char *text(const json_t *v)
{
    const char *s = json_string_value(v);
    return s ? s : "";
}

/* The object of o's list key whose key "name" (or "label") is name. */
static const json_t *named(const json_t *o, const char *list, const char *key, const char *name)
{
    const json_t *e;
    size_t i;
    json_array_foreach(json_object_get(o, list), i, e)
    {
        if (!strcmp(text(json_object_get(e, key)), name))
            return e;
    }
    return NULL;
}

/* Each variant's values (axis, label) and the words they add. */
static void read_variants(const json_t *o, struct studyrec *r)
{
    for (size_t i = 0; i < r->nv; i++) {
        struct studyrec_variant *v = &r->v[i];
        const json_t *vv = json_object_get(named(o, "variant_values", "name", v->name), "values");
        const char *axis;
        json_t *label;
        json_object_foreach((json_t *)vv, axis, label)
        {
            if (v->nvalues == 4 || !json_is_string(label))
                continue;
            snprintf(v->values[v->nvalues][0], 64, "%s", axis);
            snprintf(v->values[v->nvalues][1], 64, "%s", json_string_value(label));
            v->nvalues++;
            const json_t *val =
                named(named(o, "axes", "name", axis), "values", "label", json_string_value(label));
            const json_t *w;
            size_t c;
            json_array_foreach(json_object_get(val, "words"), c, w)
            {
                size_t l = strlen(v->words);
                snprintf(v->words + l, sizeof v->words - l, "%s%s", l ? " " : "", text(w));
            }
        }
    }
}

static void read_runs(const json_t *o, struct studyrec *r)
{
    const json_t *rs = json_object_get(o, "runs");
    r->nruns = json_is_array(rs) ? json_array_size(rs) : 0;
    r->runs = xcalloc(r->nruns ? r->nruns : 1, sizeof *r->runs);
    for (size_t i = 0; i < r->nruns; i++) {
        const json_t *e = json_array_get(rs, i);
        struct studyrec_run *u = &r->runs[i];
        str(e, "id", u->id, sizeof u->id);
        str(e, "variant", u->variant, sizeof u->variant);
        str(e, "only_cpus", u->only_cpus, sizeof u->only_cpus);
        str(e, "only_threads", u->only_threads, sizeof u->only_threads);
        str(e, "status", u->status, sizeof u->status);
        str(e, "started", u->started, sizeof u->started);
        str(e, "why", u->why, sizeof u->why);
        u->repeat = (int)num(e, "repeat");
        u->t_start = num(e, "t_start");
        u->seconds = num(e, "seconds");
        u->exit_code = (int)num(e, "exit_code");
    }
}

static void read_target(const json_t *o, struct studyrec *r)
{
    const json_t *t = json_object_get(o, "target");
    if (!json_is_object(t))
        return;
    r->has_target = 1;
    r->ci_pct = num(t, "ci_pct");
    r->max_time_s = num(t, "max_time_s");
    r->max_repeats = (int)num(t, "max_repeats");
    r->rounds_added = (int)num(t, "rounds_added");
    r->points = (int)num(t, "points");
    r->met = json_is_true(json_object_get(t, "met"));
    str(t, "end", r->end, sizeof r->end);
    const json_t *u = json_object_get(t, "unmet");
    r->nunmet = json_is_array(u) ? json_array_size(u) : 0;
    r->unmet = xcalloc(r->nunmet ? r->nunmet : 1, sizeof *r->unmet);
    for (size_t i = 0; i < r->nunmet; i++) {
        const json_t *e = json_array_get(u, i);
        struct studyrec_point *p = &r->unmet[i];
        str(e, "variant", p->variant, sizeof p->variant);
        str(e, "label", p->label, sizeof p->label);
        p->cpus = (int)num(e, "cpus");
        p->threads = (int)num(e, "threads");
        p->repeats = (int)num(e, "repeats");
        p->median = num(e, "median");
        p->lo = num(e, "lo");
        p->hi = num(e, "hi");
        p->half_pct = num(e, "half_pct");
    }
}

int studyrec_read(const char *dir, struct studyrec *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    char path[1100];
    snprintf(path, sizeof path, "%s/study.json", dir);
    if (access(path, F_OK) < 0)
        return 0;
    json_t *o = results_input_json(path, err, errlen);
    if (!o)
        return -1;
    const json_t *vs = json_object_get(o, "variants");
    if (!json_is_array(vs)) {
        snprintf(err, errlen, "%s: no \"variants\" list", path);
        json_decref(o);
        return -1;
    }
    r->nv = json_array_size(vs) < STUDYREC_MAX ? json_array_size(vs) : STUDYREC_MAX;
    r->v = xcalloc(r->nv ? r->nv : 1, sizeof *r->v);
    for (size_t i = 0; i < r->nv; i++) {
        const char *n = json_string_value(json_array_get(vs, i));
        if (!n || !name_ok(n)) {
            snprintf(err, errlen, "%s: variant %zu ('%.80s') is not a directory name of the study",
                     path, i + 1, n ? n : "");
            json_decref(o);
            studyrec_free(r);
            return -1;
        }
        snprintf(r->v[i].name, sizeof r->v[i].name, "%s", n);
    }
    str(o, "verb", r->verb, sizeof r->verb);
    str(o, "backend", r->backend, sizeof r->backend);
    str(o, "started", r->started, sizeof r->started);
    str(o, "ended", r->ended, sizeof r->ended);
    r->rounds = (int)num(o, "rounds");
    read_variants(o, r);
    read_runs(o, r);
    read_target(o, r);
    json_decref(o);
    return 1;
}

void studyrec_free(struct studyrec *r)
{
    free(r->v);
    free(r->runs);
    free(r->unmet);
    memset(r, 0, sizeof *r);
}

const struct studyrec_variant *studyrec_variant(const struct studyrec *r, const char *name)
{
    for (size_t i = 0; i < r->nv; i++)
        if (!strcmp(r->v[i].name, name))
            return &r->v[i];
    return NULL;
}

int studyrec_variants(const char *dir, char ***dirs, size_t *n, char *err, size_t errlen)
{
    struct studyrec r;
    *n = 0;
    *dirs = xcalloc(STUDYREC_MAX + 1, sizeof **dirs);
    int rc = studyrec_read(dir, &r, err, errlen);
    if (rc <= 0)
        return rc;
    for (size_t i = 0; i < r.nv; i++) {
        char sub[1200], file[1300];
        struct stat st;
        snprintf(sub, sizeof sub, "%s/%s", dir, r.v[i].name);
        snprintf(file, sizeof file, "%s/results.csv", sub);
        int has = lstat(file, &st) == 0 && S_ISREG(st.st_mode);
        for (const char *f = "micro.csv"; !has && f; f = strcmp(f, "micro.csv") ? NULL : "fs.csv") {
            snprintf(file, sizeof file, "%s/%s", sub, f);
            has = lstat(file, &st) == 0 && S_ISREG(st.st_mode);
        }
        if (has)
            (*dirs)[(*n)++] = xstrdup(sub);
    }
    studyrec_free(&r);
    return 0;
}

void studyrec_free_dirs(char **dirs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(dirs[i]);
    free(dirs);
}
