/*
 * studyjson.c - reading a kernels study's kernels.json.
 *
 * The one idea: the file is the host's record, so it is read whole into
 * plain structs once, its strings copied to their sizes (the pinning and
 * the housekeeping list allocated, since 256 vCPUs' pairs are long) and
 * every variant name checked, so a reader never builds a path from a name
 * it did not check. Nothing here writes.
 */
#include "results/studyjson.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "core/util.h"
#include "results/input.h"

int studyjson_name_ok(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n >= sizeof(((struct studyjson_variant *)0)->name) || name[0] == '.' ||
        name[0] == '-')
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && !strchr("._+-", name[i]))
            return 0;
    return 1;
}

static void str(json_t *o, const char *key, char *out, size_t len)
{
    const char *v = json_string_value(json_object_get(o, key));
    snprintf(out, len, "%s", v ? v : "");
}

static int num(json_t *o, const char *key, int def)
{
    json_t *v = json_object_get(o, key);
    return json_is_integer(v)   ? (int)json_integer_value(v)
           : json_is_boolean(v) ? json_is_true(v)
                                : def;
}

static void read_guest(json_t *g, struct studyjson *s)
{
    str(g, "accel", s->accel, sizeof s->accel);
    s->emulated = num(g, "emulated", 0);
    s->vcpus = num(g, "vcpus", 0);
    s->host_cpus = num(g, "host_cpus", 0);
    s->mem_mb = num(g, "mem_mb", 0);
    s->pinned = num(g, "pinned", 0);
    const char *p = json_string_value(json_object_get(g, "pinning"));
    const char *h = json_string_value(json_object_get(g, "housekeeping"));
    s->pinning = xstrdup(p ? p : "");
    s->housekeeping = xstrdup(h ? h : "");
    json_t *t = json_object_get(g, "topology");
    s->sockets = num(t, "sockets", 0);
    s->cores = num(t, "cores", 0);
    s->threads = num(t, "threads", 0);
    s->nodes = num(t, "nodes", 0);
    str(g, "share", s->share, sizeof s->share);
}

static void read_runs(json_t *a, struct studyjson *s)
{
    s->nruns = json_is_array(a) ? json_array_size(a) : 0;
    s->runs = xcalloc(s->nruns ? s->nruns : 1, sizeof *s->runs);
    for (size_t i = 0; i < s->nruns; i++) {
        json_t *o = json_array_get(a, i);
        struct studyjson_run *r = &s->runs[i];
        str(o, "id", r->id, sizeof r->id);
        str(o, "variant", r->variant, sizeof r->variant);
        r->repeat = num(o, "repeat", 0);
        str(o, "status", r->status, sizeof r->status);
        str(o, "why", r->why, sizeof r->why);
        r->exit_code = num(o, "exit_code", -1);
        str(o, "boot_id", r->boot_id, sizeof r->boot_id);
        json_t *sec = json_object_get(o, "seconds");
        r->seconds = json_is_number(sec) ? json_number_value(sec) : 0;
        r->pinned = num(o, "pinned", 0);
    }
}

/* A variant's kernel and boot: named by its first run, looked up in the lists. */
static void fill_variant(json_t *root, struct studyjson_variant *v)
{
    size_t i;
    json_t *o;
    json_array_foreach(json_object_get(root, "runs"), i, o)
    {
        const char *n = json_string_value(json_object_get(o, "variant"));
        if (n && !strcmp(n, v->name)) {
            str(o, "kernel", v->kernel, sizeof v->kernel);
            str(o, "boot", v->boot, sizeof v->boot);
            break;
        }
    }
    v->config_smp = -1;
    json_array_foreach(json_object_get(root, "kernels"), i, o)
    {
        const char *l = json_string_value(json_object_get(o, "label"));
        if (l && !strcmp(l, v->kernel)) {
            str(o, "release", v->release, sizeof v->release);
            str(o, "image", v->image, sizeof v->image);
            str(o, "sha256", v->sha256, sizeof v->sha256);
            v->config_smp = num(o, "config_smp", -1);
        }
    }
    json_array_foreach(json_object_get(root, "boots"), i, o)
    {
        const char *l = json_string_value(json_object_get(o, "label"));
        if (l && !strcmp(l, v->boot))
            str(o, "params", v->params, sizeof v->params);
    }
}

int studyjson_read(const char *dir, struct studyjson *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    char path[1100];
    snprintf(path, sizeof path, "%s/kernels.json", dir);
    if (access(path, F_OK) < 0 && (errno == ENOENT || errno == ENOTDIR))
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
    read_guest(json_object_get(o, "guest"), s);
    s->nvariants = json_array_size(vs);
    s->variants = xcalloc(s->nvariants ? s->nvariants : 1, sizeof *s->variants);
    for (size_t i = 0; i < s->nvariants; i++) {
        const char *n = json_string_value(json_array_get(vs, i));
        if (!n || !studyjson_name_ok(n)) {
            snprintf(err, errlen, "%s: variant %zu is not a directory name a study makes ('%.80s')",
                     path, i + 1, n ? n : "(not a string)");
            json_decref(o);
            studyjson_free(s);
            return -1;
        }
        snprintf(s->variants[i].name, sizeof s->variants[i].name, "%s", n);
        fill_variant(o, &s->variants[i]);
    }
    read_runs(json_object_get(o, "runs"), s);
    json_decref(o);
    return 1;
}

void studyjson_free(struct studyjson *s)
{
    free(s->pinning);
    free(s->housekeeping);
    free(s->variants);
    free(s->runs);
    memset(s, 0, sizeof *s);
}

const struct studyjson_run *studyjson_run_of_boot(const struct studyjson *s, const char *id)
{
    for (size_t i = 0; id && id[0] && i < s->nruns; i++)
        if (!strcmp(s->runs[i].boot_id, id))
            return &s->runs[i];
    return NULL;
}

const struct studyjson_variant *studyjson_variant(const struct studyjson *s, const char *name)
{
    for (size_t i = 0; i < s->nvariants; i++)
        if (!strcmp(s->variants[i].name, name))
            return &s->variants[i];
    return NULL;
}
