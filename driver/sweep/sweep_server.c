/*
 * sweep_server.c - what the sweep reads of the server it measures: its
 * processes now (the managed one's, or an external one's family when its
 * pid is known), and, for meta.json, its version and the few settings that
 * decide what a figure means.
 *
 * The one idea: one function answers "which processes are the server" for
 * everything that needs it (holding its CPUs, the window's edges, the why
 * collectors), so all of them see the same processes. A leaf of the room:
 * it calls no other file of sweep/. It never changes the server.
 */
#include "sweep/sweep.h"

#include <stdio.h>
#include <stdlib.h>

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
