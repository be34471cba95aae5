/*
 * page_study.c - the page's study section: per results directory, the
 * machine, the server, dbscale and the command that reproduces the study,
 * from its meta.json.
 *
 * The one idea: show meta.json as it was written, each value escaped; the
 * command is rebuilt only from names the sweep's option table knows, so an
 * edited meta.json cannot put a word of its own into it.
 *
 * Never let a string from a file reach the page but through page_esc().
 */
#include "page/page_study.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "page/page_html.h"
#include "page/page_rounds.h"
#include "results/meta_command.h"

/* A meta.json value as text: strings as they are, numbers, booleans, an
 * object as "key=value, ..." (server settings). */
static void meta_text(const json_t *v, struct sbuf *out)
{
    if (json_is_string(v))
        sbuf_printf(out, "%s", json_string_value(v));
    else if (json_is_integer(v))
        sbuf_printf(out, "%lld", (long long)json_integer_value(v));
    else if (json_is_real(v))
        sbuf_printf(out, "%g", json_real_value(v));
    else if (json_is_boolean(v))
        sbuf_printf(out, "%s", json_is_true(v) ? "yes" : "no");
    else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach((json_t *)v, i, e)
        {
            if (i)
                sbuf_printf(out, "; ");
            meta_text(e, out);
        }
    } else if (json_is_object(v)) {
        const char *k;
        json_t *e;
        int first = 1;
        json_object_foreach((json_t *)v, k, e)
        {
            if (strstr(k, "password"))
                continue;
            sbuf_printf(out, "%s%s=", first ? "" : ", ", k);
            first = 0;
            meta_text(e, out);
        }
    }
}

/* The first present key of keys in meta.json, or NULL. */
static const json_t *meta_get(const struct curves_dir *d, const char *const *keys)
{
    for (; d->meta && *keys; keys++) {
        const json_t *v = json_object_get(d->meta, *keys);
        if (v && !json_is_null(v))
            return v;
    }
    return NULL;
}

static void shell_word(struct sbuf *b, const char *s)
{
    int plain = s[0] != '\0';
    for (const char *c = s; *c && plain; c++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.,:/=+-@%",
                       *c) != NULL;
    if (plain) {
        sbuf_printf(b, "%s", s);
        return;
    }
    sbuf_add(b, "'", 1);
    for (; *s; s++)
        if (*s == '\'')
            sbuf_add(b, "'\\''", 4);
        else
            sbuf_add(b, s, 1);
    sbuf_add(b, "'", 1);
}

/* The sweep's option table, to check meta.json's names against. */
static const struct optdef *known_defs;
static size_t known_n;

void page_known_options(const struct optdef *defs, size_t n)
{
    known_defs = defs;
    known_n = n;
}

static const struct optdef *known(const char *name)
{
    for (size_t i = 0; i < known_n; i++)
        if (!strcmp(known_defs[i].name, name))
            return &known_defs[i];
    return NULL;
}

/* A name an option could have: what a Lua workload's own options are held
 * to, since they are in no table the page has. */
static int name_like(const char *n)
{
    size_t l = strlen(n);
    if (l == 0 || l > 64 || !(n[0] >= 'a' && n[0] <= 'z'))
        return 0;
    return strspn(n, "abcdefghijklmnopqrstuvwxyz0123456789_-") == l;
}

static int is_script(const char *workload)
{
    size_t l = workload ? strlen(workload) : 0;
    return l > 4 && !strcmp(workload + l - 4, ".lua");
}

/* One "--NAME=VALUE" of the command, if NAME may be there: a known option
 * (or, for a script's sweep, one shaped like an option). 1 added; 0 left
 * out as no option; -1 left out on purpose (a password, a secret, --out and
 * the others a reproduction must not carry: meta_command.h). */
static int add_option(struct sbuf *cmd, const char *name, const char *value, const char *workload)
{
    if (!name_like(name))
        return 0;
    if (strstr(name, "password") || meta_command_skips(name))
        return -1;
    const struct optdef *d = known(name);
    if (!d && !is_script(workload))
        return 0;
    if (d && (d->type == OPT_SECRET || d->type == OPT_ALIAS || d->type == OPT_REFUSED))
        return -1;
    sbuf_printf(cmd, " --%s=", name);
    shell_word(cmd, value);
    return 1;
}

/* The workload word: a built-in's name or a script's path, nothing a shell
 * would read otherwise (it is quoted anyway). */
static const char *workload_of(const json_t *meta, const json_t *opts)
{
    const json_t *w = json_object_get(opts, "workload");
    if (!json_is_string(w))
        w = json_object_get(meta, "workload");
    return json_is_string(w) && json_string_length(w) ? json_string_value(w) : NULL;
}

/* From a meta.json written before "command" was (its "options" hold every
 * default): the options that differ from their default, of the study's
 * engine only. */
static void from_options(const json_t *meta, const json_t *o, const char *workload,
                         struct sbuf *cmd, int *left_out)
{
    const json_t *dv = json_object_get(o, "db-driver");
    const json_t *ev = json_is_string(dv) ? dv : json_object_get(meta, "engine");
    const char *engine = json_is_string(ev) ? json_string_value(ev) : "";
    const char *other = !strcmp(engine, "pgsql")   ? "mysql-"
                        : !strcmp(engine, "mysql") ? "pgsql-"
                                                   : NULL;
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)o, k, v)
    {
        if (!strcmp(k, "workload"))
            continue;
        const struct optdef *d = known(k);
        if (!json_is_string(v)) {
            (*left_out)++;
            continue;
        }
        const char *val = json_string_value(v);
        if ((d && d->def && !strcmp(d->def, val)) || (d && !d->def && !*val) ||
            (other && !strncmp(k, other, 6)))
            continue; /* a default, or the other engine's */
        if (add_option(cmd, k, val, workload) == 0)
            (*left_out)++;
    }
}

int page_command(const struct curves_dir *d, struct sbuf *cmd, int *left_out)
{
    *left_out = 0;
    const json_t *meta = d->meta;
    const json_t *o = meta ? json_object_get(meta, "options") : NULL;
    const json_t *words = meta ? json_object_get(meta, "command") : NULL;
    if (!json_is_object(o) && !json_is_array(words))
        return -1;
    const char *workload = NULL;
    size_t i = 0;
    if (json_is_array(words)) {
        const json_t *w0 = json_array_get(words, 0);
        if (json_is_string(w0) && json_string_value(w0)[0] != '-') {
            workload = json_string_value(w0);
            i = 1;
        }
    } else {
        workload = workload_of(meta, o);
    }
    if (!workload)
        return -1; /* no workload: no command that would run */
    sbuf_printf(cmd, "dbscale sweep ");
    shell_word(cmd, workload);
    if (!json_is_array(words)) {
        from_options(meta, o, workload, cmd, left_out);
        return 0;
    }
    for (; i < json_array_size(words); i++) {
        const json_t *w = json_array_get(words, i);
        const char *s = json_is_string(w) ? json_string_value(w) : "";
        const char *eq = strchr(s, '=');
        char name[80];
        if (strncmp(s, "--", 2) || !eq || (size_t)(eq - s - 2) >= sizeof name) {
            (*left_out)++;
            continue;
        }
        snprintf(name, sizeof name, "%.*s", (int)(eq - s - 2), s + 2);
        if (add_option(cmd, name, eq + 1, workload) == 0)
            (*left_out)++;
    }
    return 0;
}

static void study_row(struct sbuf *b, const char *name, const struct curves_dir *d,
                      const char *const *keys)
{
    const json_t *v = meta_get(d, keys);
    if (!v)
        return;
    struct sbuf t = {0};
    meta_text(v, &t);
    if (t.len) {
        sbuf_printf(b, "<tr><th>%s</th><td>", name);
        page_esc(b, t.s);
        sbuf_printf(b, "</td></tr>\n");
    }
    sbuf_free(&t);
}

/* What the study section shows, by the names meta.json has used for it. */
static const struct {
    const char *name;
    const char *keys[5];
} study_rows[] = {
    {"host", {"hostname", "host", "nodename"}},
    {"CPU model", {"cpu_model"}},
    {"CPUs online", {"cpus_online"}},
    {"machine", {"machine"}},
    {"memory kB", {"mem_kb"}},
    {"kernel", {"kernel", "kernel_release", "uname", "release"}},
    {"engine", {"engine"}},
    {"server", {"server_version"}},
    {"server settings", {"server_settings"}},
    {"server build", {"server_build"}},
    {"extra settings (--server-conf)", {"server_conf"}},
    {"server managed by", {"server"}},
    {"CPU method", {"cpu_method"}},
    {"dbscale", {"dbscale_version"}},
    {"commit", {"git_commit", "git"}},
    {"started", {"started", "start"}},
    {"ended", {"ended", "end"}},
};

void page_study(const struct curves *cv, struct sbuf *b)
{
    page_rounds(cv, b); /* a study's variants and runs, when the directories are one's */
    for (size_t i = 0; i < cv->ndirs; i++) {
        const struct curves_dir *d = &cv->dirs[i];
        sbuf_printf(b, "<h3>");
        page_esc(b, d->name);
        sbuf_printf(b, "</h3>\n<table class=\"kv\">\n<tr><th>results</th><td>");
        page_esc(b, d->path);
        sbuf_printf(b, "</td></tr>\n");
        if (!d->meta)
            sbuf_printf(b, "<tr><th>meta.json</th><td>missing or not a JSON object: the machine "
                           "and server are unknown</td></tr>\n");
        for (size_t r = 0; r < sizeof study_rows / sizeof study_rows[0]; r++)
            study_row(b, study_rows[r].name, d, study_rows[r].keys);
        sbuf_printf(b, "</table>\n");
        struct sbuf cmd = {0};
        int left_out;
        if (page_command(d, &cmd, &left_out) == 0) {
            sbuf_printf(b, "<p>Reproduce (what the sweep was given, as meta.json records it; "
                           "passwords never are: give yours as before; the results go to a "
                           "new directory):</p>\n<pre class=\"cmd\">");
            page_esc(b, cmd.s);
            sbuf_printf(b, "</pre>\n");
            if (left_out)
                sbuf_printf(b,
                            "<p class=\"warn\">Left out of the command: %d %s of "
                            "meta.json that %s no dbscale sweep option.</p>\n",
                            left_out, left_out == 1 ? "entry" : "entries",
                            left_out == 1 ? "names" : "name");
        }
        sbuf_free(&cmd);
    }
}
