/*
 * record.c - OUT/study.json written from the engine's state.
 *
 * The one idea: the record is the study's own account of itself, for the
 * page and for a person: which variant is which (each axis value's words:
 * a build's directory, a setting's lines), the order the runs went in and
 * when each started (the interleaving, visible), and where the target was
 * not met. Everything in it is also something the engine acted on.
 *
 * Written through OUT's descriptor, whole, never following a link.
 */
#include "study/record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/safefile.h"
#include "core/util.h"

static const char *status_name(enum study_status st)
{
    static const char *const n[] = {"not run", "ok", "failed", "stopped"};
    return n[st];
}

static json_t *axes_json(const struct study_engine *e)
{
    json_t *a = json_array();
    for (int i = 0; i < e->naxes; i++) {
        const struct study_axis *x = &e->axes[i];
        json_t *vals = json_array();
        for (int k = 0; k < x->n; k++) {
            json_t *w = json_array();
            for (int j = 0; j < x->v[k].nwords; j++)
                json_array_append_new(w, json_string(x->v[k].words[j]));
            json_array_append_new(vals,
                                  json_pack("{s:s, s:o}", "label", x->v[k].label, "words", w));
        }
        json_array_append_new(a, json_pack("{s:s, s:o}", "name", x->name, "values", vals));
    }
    return a;
}

static json_t *variants_json(const struct study_engine *e, json_t **names)
{
    json_t *a = json_array();
    *names = json_array();
    for (int i = 0; i < e->nv; i++) {
        json_t *of = json_object();
        for (int k = 0; k < e->naxes; k++)
            json_object_set_new(of, e->axes[k].name,
                                json_string(e->axes[k].v[e->v[i].value[k]].label));
        json_array_append_new(a, json_pack("{s:s, s:o}", "name", e->v[i].name, "values", of));
        json_array_append_new(*names, json_string(e->v[i].name));
    }
    return a;
}

static json_t *runs_json(const struct study_engine *e)
{
    json_t *a = json_array();
    for (int i = 0; i < e->nruns; i++) {
        const struct study_run *u = &e->runs[i];
        json_t *o =
            json_pack("{s:s, s:s, s:i, s:s, s:s, s:s, s:s, s:f, s:f, s:s, s:i, s:s}", "id", u->id,
                      "variant", u->variant, "repeat", u->repeat + 1, "only_cpus", u->only_cpus,
                      "only_threads", u->only_threads, "status", status_name(u->status), "started",
                      u->started, "t_start", u->t_start, "seconds", u->seconds, "why", u->why,
                      "exit_code", u->exit_code, "boot_id", u->boot_id);
        json_array_append_new(a, o ? o : json_object());
    }
    return a;
}

static json_t *target_json(const struct study_engine *e)
{
    const struct study_target *t = &e->target;
    if (t->ci <= 0)
        return json_null();
    json_t *unmet = json_array();
    for (int p = 0; p < e->npts; p++) {
        const struct study_point *q = &e->pts[p];
        if (q->met)
            continue;
        json_array_append_new(
            unmet, json_pack("{s:s, s:s, s:i, s:i, s:i, s:f, s:f, s:f, s:f}", "variant",
                             e->v[q->vi].name, "label", q->label, "cpus", q->cpus, "threads",
                             q->threads, "repeats", q->n, "median", q->median, "lo", q->lo, "hi",
                             q->hi, "half_pct", q->n > 0 && q->median > 0 ? 100 * q->half : -1.0));
    }
    return json_pack("{s:f, s:i, s:i, s:f, s:i, s:b, s:s, s:i, s:o}", "ci_pct", 100 * t->ci,
                     "min_repeats", t->min_repeats, "max_repeats", t->max_repeats, "max_time_s",
                     t->max_time_s, "rounds_added", e->added, "met", e->target_met, "end",
                     e->target_end, "points", e->npts, "unmet", unmet);
}

int study_record_write(const struct study_engine *e, char *err, size_t errlen)
{
    json_t *o = json_object(), *names;
    json_object_set_new(o, "dbscale_study", json_integer(1));
    json_object_set_new(o, "verb", json_string(e->verb ? e->verb : "study"));
    json_object_set_new(o, "dbscale_version", json_string(DBSCALE_VERSION));
    json_object_set_new(o, "git_commit", json_string(DBSCALE_GIT));
    json_object_set_new(o, "backend", json_string(e->be.name ? e->be.name : ""));
    json_object_set_new(o, "started", json_string(e->started));
    json_object_set_new(o, "ended", json_string(e->ended));
    json_t *cmd = json_array();
    for (int i = 0; i < e->ncmd; i++)
        json_array_append_new(cmd, json_string(e->cmd[i]));
    json_object_set_new(o, "command", cmd);
    json_t *common = json_array();
    for (int i = 0; i < e->ncommon; i++)
        json_array_append_new(common, json_string(e->common[i]));
    json_object_set_new(o, "common", common);
    json_object_set_new(o, "cwd", json_string(e->cwd));
    json_object_set_new(o, "rounds", json_integer(e->rounds));
    json_object_set_new(o, "axes", axes_json(e));
    json_object_set_new(o, "variant_values", variants_json(e, &names));
    json_object_set_new(o, "variants", names);
    json_object_set_new(o, "runs", runs_json(e));
    json_object_set_new(o, "target", target_json(e));
    return study_json_write(e->outfd, e->out, "study.json", o, err, errlen);
}

int study_json_write(int dirfd, const char *dir, const char *name, json_t *o, char *err,
                     size_t errlen)
{
    char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    int rc = -ENOMEM;
    if (text) {
        struct sbuf b = {0};
        sbuf_printf(&b, "%s\n", text);
        free(text);
        rc = dirfd < 0 ? -EBADF : file_write_at(dirfd, name, b.s, b.len);
        sbuf_free(&b);
    }
    if (rc < 0)
        snprintf(err, errlen, "%s/%s: %s", dir, name, strerror(-rc));
    return rc < 0 ? -1 : 0;
}
