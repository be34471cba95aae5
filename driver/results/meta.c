/*
 * meta.c - meta.json, written and read in one place.
 *
 * The one idea: a table of (key, type, offset into struct meta) drives both
 * the writer and the reader, like results.c does for results.csv, and jansson
 * does the JSON, so a hostname or command line with quotes, backslashes or
 * newlines comes back as it went in. The reader takes keys by name and
 * ignores ones it does not know, so a newer writer's files still load. Never
 * write in place (write_file_atomic) and never trust a file: a broken one is
 * an error naming it, never a crash.
 */
#include "results/input.h"
#include "results/meta.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

enum field_type { F_STR, F_INT, F_LL, F_NUM, F_BOOL };

struct field {
    const char *key;
    enum field_type type;
    size_t off, size;
};

#define FS(k, f)                                                                                   \
    {                                                                                              \
        k, F_STR, offsetof(struct meta, f), sizeof(((struct meta *)0)->f)                          \
    }
#define FI(k, f)                                                                                   \
    {                                                                                              \
        k, F_INT, offsetof(struct meta, f), 0                                                      \
    }
#define FL(k, f)                                                                                   \
    {                                                                                              \
        k, F_LL, offsetof(struct meta, f), 0                                                       \
    }
#define FN(k, f)                                                                                   \
    {                                                                                              \
        k, F_NUM, offsetof(struct meta, f), 0                                                      \
    }
#define FB(k, f)                                                                                   \
    {                                                                                              \
        k, F_BOOL, offsetof(struct meta, f), 0                                                     \
    }

/* clang-format off */
static const struct field fields[] = {
    FS("dbscale_version", dbscale_version),
    FS("git_commit", git_commit),
    FS("engine", engine),
    FS("workload", workload),
    FS("server", server),
    FS("server_version", server_version),
    FS("db_host", db_host),
    FI("db_port", db_port),
    FS("cpu_method", cpu_method),
    FS("host", host),
    FS("kernel", kernel),
    FS("machine", machine),
    FS("cmdline", cmdline),
    FS("cpu_model", cpu_model),
    FS("cpus_online", cpus_online),
    FS("cpus_possible", cpus_possible),
    FB("uniprocessor", uniprocessor),
    FL("mem_kb", mem_kb),
    FS("started", started),
    FS("ended", ended),
    FN("time_s", time_s),
    FN("warmup_s", warmup_s),
    FI("repeats", repeats),
    FI("levels_planned", levels_planned),
    FI("levels_done", levels_done),
};
/* clang-format on */
#define NFIELDS (sizeof fields / sizeof fields[0])

int meta_write(const char *dir, const struct meta *m)
{
    json_t *o = json_object();
    const char *base = (const char *)m;
    for (size_t i = 0; i < NFIELDS; i++) {
        const struct field *f = &fields[i];
        const void *p = base + f->off;
        json_t *v = NULL;
        switch (f->type) {
        case F_STR:
            v = json_string(p); /* NULL on invalid UTF-8: then stored as "" */
            if (!v)
                v = json_string("");
            break;
        case F_INT:
            v = json_integer(*(const int *)p);
            break;
        case F_LL:
            v = json_integer(*(const long long *)p);
            break;
        case F_NUM:
            v = json_real(*(const double *)p);
            break;
        case F_BOOL:
            v = json_boolean(*(const int *)p);
            break;
        }
        json_object_set_new(o, f->key, v);
    }
    json_t *vs = json_array();
    for (int i = 0; i < m->nvariants; i++)
        json_array_append_new(vs, json_string(m->variants[i]));
    json_object_set_new(o, "variants", vs);
    json_object_set_new(o, "server_settings",
                        m->server_settings ? json_incref(m->server_settings) : json_object());
    json_object_set_new(o, "options", m->options ? json_incref(m->options) : json_object());
    if (m->extra)
        json_object_update_missing(o, m->extra); /* never over a key of ours */
    char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    if (!text)
        return -ENOMEM;
    struct sbuf b = {0};
    sbuf_printf(&b, "%s\n", text);
    free(text);
    char path[1100];
    int rc;
    if (snprintf(path, sizeof path, "%s/meta.json", dir) >= (int)sizeof path)
        rc = -ENAMETOOLONG;
    else
        rc = write_file_atomic(path, b.s, b.len);
    sbuf_free(&b);
    return rc;
}

static void read_field(const struct field *f, char *base, json_t *v)
{
    void *p = base + f->off;
    switch (f->type) {
    case F_STR:
        if (json_is_string(v))
            snprintf(p, f->size, "%s", json_string_value(v));
        break;
    case F_INT:
        if (json_is_number(v))
            *(int *)p = (int)json_number_value(v);
        break;
    case F_LL:
        if (json_is_number(v))
            *(long long *)p = (long long)json_number_value(v);
        break;
    case F_NUM:
        if (json_is_number(v))
            *(double *)p = json_number_value(v);
        break;
    case F_BOOL:
        *(int *)p = json_is_true(v);
        break;
    }
}

int meta_load(const char *path, struct meta *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    char file[1100];
    size_t l = strlen(path);
    if (l > 5 && !strcmp(path + l - 5, ".json"))
        snprintf(file, sizeof file, "%s", path);
    else
        snprintf(file, sizeof file, "%s/meta.json", path);
    /* Through the one results opener: a FIFO or /dev/zero named meta.json
     * is refused, not read forever. */
    json_t *o = results_input_json(file, err, errlen);
    if (!o)
        return -1;
    for (size_t i = 0; i < NFIELDS; i++) {
        json_t *v = json_object_get(o, fields[i].key);
        if (v)
            read_field(&fields[i], (char *)m, v);
    }
    json_t *vs = json_object_get(o, "variants");
    size_t i;
    json_t *v;
    if (json_is_array(vs)) {
        json_array_foreach(vs, i, v)
        {
            if (json_is_string(v))
                meta_add_variant(m, json_string_value(v));
        }
    }
    json_t *ss = json_object_get(o, "server_settings");
    if (json_is_object(ss))
        m->server_settings = json_incref(ss);
    json_t *op = json_object_get(o, "options");
    if (json_is_object(op))
        m->options = json_incref(op);
    m->raw = o; /* the reference json_loadf gave */
    return 0;
}

void meta_add_variant(struct meta *m, const char *label)
{
    for (int i = 0; i < m->nvariants; i++)
        if (!strcmp(m->variants[i], label))
            return;
    if (m->nvariants < META_MAX_VARIANTS)
        snprintf(m->variants[m->nvariants++], sizeof m->variants[0], "%s", label);
}

void meta_free(struct meta *m)
{
    json_decref(m->server_settings);
    json_decref(m->options);
    json_decref(m->raw);
    json_decref(m->extra);
    m->extra = NULL;
    m->server_settings = NULL;
    m->options = NULL;
    m->raw = NULL;
}
