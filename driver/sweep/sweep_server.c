/*
 * sweep_server.c - what the sweep reads of the server it measures: its
 * processes now (the managed one's, or an external one's family when its
 * pid is known), and, for meta.json, its version and the few settings that
 * decide what a figure means.
 *
 * The one idea: one function answers "which processes are the server" for
 * everything that needs it (holding its CPUs, the window's edges, the why
 * collectors), so all of them see the same processes; and one record says
 * which server a directory's rows are of (the installation and the extra
 * settings), written into meta.json and checked before --append adds rows
 * of another. A leaf of the room: it calls no other file of sweep/. It
 * never changes the server.
 */
#include "sweep/sweep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/meta.h"
#include "core/util.h"

int sweep_server_family(struct sweep *w, pid_t *pids, int max)
{
    if (w->managed)
        return server_pids(&w->srv, pids, max);
    return w->ext_pid > 0 ? sysinfo_family(w->ext_pid, pids, max) : 0;
}

void sweep_read_settings(struct sweep *w)
{
    struct db_error e = {0};
    struct db_conn *c = w->s.ops->connect(&w->s.targets[0], &e);
    if (!c)
        return;
    snprintf(w->server_version, sizeof w->server_version, "%s", w->s.ops->server_version(c));
    /* which settings, and how to read them, is the engine's knowledge */
    const struct db_ops *ops = w->s.ops;
    struct sbuf b = {0};
    for (int i = 0; i < ops->nsettings; i++) {
        char *v = ops->query_value(c, ops->settings[i][1], &e);
        sbuf_printf(&b, "%s\"%s\": ", i ? ", " : "", ops->settings[i][0]);
        sbuf_json(&b, v ? v : "");
        free(v);
    }
    snprintf(w->settings, sizeof w->settings, "%s", b.s ? b.s : "");
    sbuf_free(&b);
    w->s.ops->close(c);
}

/* The --server-conf lines as given, a JSON array (a new reference). */
static json_t *conf_lines(const struct sweep *w)
{
    size_t n = 0;
    const char *const *v = opts_list(&w->o, "server-conf", &n);
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_string(v[i]));
    return a;
}

void sweep_server_meta(const struct sweep *w, json_t *meta)
{
    if (!w->managed)
        return;
    const struct server_install *in = &w->inst;
    if (in->daemon[0])
        json_object_set_new(meta, "server_build",
                            json_pack("{s:s, s:s, s:s, s:s}", "dir", in->dir, "daemon", in->daemon,
                                      "sha256", in->sha256, "version", in->version));
    json_object_set_new(meta, "server_conf", conf_lines(w));
}

int sweep_server_same(const struct sweep *w, char *err, size_t errlen)
{
    char path[1100], why[600];
    snprintf(path, sizeof path, "%s/meta.json", w->out);
    struct meta m;
    if (!w->managed || access(path, F_OK) < 0 || meta_load(w->out, &m, why, sizeof why) < 0)
        return 0; /* nothing earlier to tell by (an unreadable one: the append says) */
    int rc = 0;
    const char *sha =
        json_string_value(json_object_get(json_object_get(m.raw, "server_build"), "sha256"));
    const char *ver =
        json_string_value(json_object_get(json_object_get(m.raw, "server_build"), "version"));
    if (sha && *sha && w->inst.sha256[0] && strcmp(sha, w->inst.sha256)) {
        snprintf(err, errlen,
                 "%s holds results of another server build (%s, sha256 %.12s; now %s, %.12s from "
                 "%s): give each build its own results directory and compare them (dbscale "
                 "study --server-bin)",
                 w->out, ver ? ver : "?", sha, w->inst.version, w->inst.sha256,
                 w->inst.dir[0] ? w->inst.dir : w->inst.daemon);
        rc = -1;
    }
    json_t *old = json_object_get(m.raw, "server_conf"), *now = conf_lines(w);
    if (!rc && json_is_array(old) && !json_equal(old, now)) {
        char *a = json_dumps(old, JSON_COMPACT), *b = json_dumps(now, JSON_COMPACT);
        snprintf(err, errlen,
                 "%s holds results of a server with other settings (--server-conf %s; now %s): "
                 "give each its own results directory and compare them (dbscale study "
                 "--settings)",
                 w->out, a ? a : "?", b ? b : "?");
        free(a);
        free(b);
        rc = -1;
    }
    json_decref(now);
    meta_free(&m);
    return rc;
}
