/*
 * verbs/study_axes.c - a study's host axes from the verb's options: the
 * server builds (--server-bin [LABEL=]DIR) and the sets of server settings
 * (--settings LABEL=KEY=VALUE), each value with the words it adds to the
 * command (--server-bin=DIR, --server-conf=LINE).
 *
 * The one idea: a variant is only as good as its check before anything
 * runs, so every build is found and checked as an installation of the
 * command's engine (servers/server.h: a link farm, the other engine's
 * programs, a directory without them all refused) and every set of
 * settings is checked against every build's server, as a sweep would
 * check its --server-conf; a mistake is exit 2 naming it, with nothing
 * made.
 *
 * It reads the command's words, never changes them.
 */
#include "verbs/study_axes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "servers/server.h"

/* A value's words: each a copy it owns. */
static void add_word(struct study_value *val, const char *fmt, const char *a)
{
    struct sbuf w = {0};
    sbuf_printf(&w, fmt, a);
    val->words = xrealloc(val->words, (size_t)(val->nwords + 1) * sizeof *val->words);
    val->words[val->nwords++] = xstrdup(w.s);
    sbuf_free(&w);
}

const char *study_axes_option(char *const *cmd, int ncmd, const char *name)
{
    size_t l = strlen(name);
    const char *found = NULL;
    for (int i = 1; i < ncmd; i++)
        if (!strncmp(cmd[i], "--", 2) && !strncmp(cmd[i] + 2, name, l)) {
            const char *rest = cmd[i] + 2 + l;
            if (*rest == '=')
                found = rest + 1;
            else if (!*rest)
                found = i + 1 < ncmd ? cmd[i + 1] : "";
        }
    return found;
}

int study_axes_engine(char *const *cmd, int ncmd)
{
    const char *d = study_axes_option(cmd, ncmd, "db-driver");
    const char *cfg = study_axes_option(cmd, ncmd, "config");
    char line[512], val[64] = "";
    FILE *f = !d && cfg ? fopen(cfg, "r") : NULL;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, " db-driver = %63[A-Za-z]", val) == 1)
            d = val;
    if (f)
        fclose(f);
    return server_engine_parse(d ? d : "mysql");
}

/* The managed server is the one a variant changes: a sweep, not external. */
static const char *not_managed(char *const *cmd, int ncmd)
{
    const char *srv = study_axes_option(cmd, ncmd, "server");
    if (strcmp(cmd[0], "sweep"))
        return "the command is no sweep";
    if (srv && strcmp(srv, "managed"))
        return "the command has --server=external";
    return NULL;
}

/* A build's label from its version ("postgres (PostgreSQL) 15.18 ..." ->
 * 15.18), made unique among the first k of v. */
static void build_label(const struct study_value *v, int k, const struct server_install *in,
                        char *out)
{
    const char *p = in->version;
    while (*p && !(*p >= '0' && *p <= '9'))
        p++;
    size_t n = 0;
    while (n < 20 && p[n] && strchr("0123456789.", p[n]))
        n++;
    snprintf(out, STUDY_LABEL, "%.*s", (int)n, p);
    if (!out[0] || !study_label_ok(out, strlen(out)))
        snprintf(out, STUDY_LABEL, "build");
    char base[STUDY_LABEL];
    snprintf(base, sizeof base, "%s", out);
    for (int t = 2, dup = 1; dup && t < 100; t++) {
        dup = 0;
        for (int j = 0; j < k; j++)
            dup |= !strcmp(v[j].label, out);
        if (dup)
            snprintf(out, STUDY_LABEL, "%.24s-%d", base, t);
    }
}

/* One --server-bin into val (the i-th of v). */
static int one_build(struct study_value *v, int i, const char *arg, int engine, int guest,
                     char *err, size_t errlen)
{
    struct study_value *val = &v[i];
    const char *dir = arg, *eq = strchr(arg, '=');
    if (eq && access(arg, F_OK) < 0) { /* LABEL=DIR (a directory named so is a path) */
        if (!study_label_ok(arg, (size_t)(eq - arg))) {
            snprintf(err, errlen,
                     "--server-bin '%s': LABEL=DIR, LABEL 1-31 of A-Za-z0-9._+-, not starting "
                     "with '.' or '-'",
                     arg);
            return -1;
        }
        snprintf(val->label, sizeof val->label, "%.*s", (int)(eq - arg), arg);
        dir = eq + 1;
    }
    struct server_install in;
    char why[1500];
    if (server_install_find(engine, dir, &in, why, sizeof why) < 0) {
        snprintf(err, errlen, "--server-bin: %s", why);
        return -1;
    }
    if (guest && (!strncmp(in.dir, "/tmp/", 5) || !strncmp(in.dir, "/var/tmp/", 9))) {
        snprintf(err, errlen,
                 "--server-bin %s: a guest has a /tmp of its own and does not see the host's "
                 "there: give a build outside /tmp and /var/tmp",
                 dir);
        return -1;
    }
    if (!val->label[0])
        build_label(v, i, &in, val->label);
    for (int j = 0; j < i; j++)
        if (!strcmp(v[j].label, val->label)) {
            snprintf(err, errlen, "--server-bin: label '%s' given twice", val->label);
            return -1;
        }
    add_word(val, "--server-bin=%s", in.dir);
    return 0;
}

int study_axes_builds(const struct opts *o, char *const *cmd, int ncmd, int engine, int guest,
                      struct study_axis *ax, char *err, size_t errlen)
{
    size_t n;
    const char *const *b = opts_list(o, "server-bin", &n);
    *ax = (struct study_axis){"build", NULL, 0};
    if (!n)
        return 0;
    const char *why = n > STUDY_AXIS_MAX       ? "more builds than a study has variants"
                      : not_managed(cmd, ncmd) ? not_managed(cmd, ncmd)
                      : study_axes_option(cmd, ncmd, "server-bin")
                          ? "give the builds to the study, not --server-bin to the command"
                      : engine < 0 ? "the command's --db-driver names no server engine"
                                   : NULL;
    if (why) {
        snprintf(err, errlen, "--server-bin: %s", why);
        return -1;
    }
    ax->v = xcalloc(n, sizeof *ax->v);
    for (size_t i = 0; i < n; i++, ax->n++)
        if (one_build(ax->v, (int)i, b[i], engine, guest, err, errlen) < 0) {
            ax->n++;
            return -1;
        }
    return 0;
}

/* The index of the set labelled s[0..len) among v[0..n), or n. */
static int set_of(const struct study_value *v, int n, const char *s, size_t len)
{
    int k = 0;
    while (k < n && !(strlen(v[k].label) == len && !strncmp(v[k].label, s, len)))
        k++;
    return k;
}

/* Set k's lines against every build's server (the default one without). */
static int check_set(const struct study_value *set, int engine, const struct study_axis *builds,
                     char *err, size_t errlen)
{
    struct sbuf lines = {0};
    for (int w = 0; w < set->nwords; w++)
        sbuf_printf(&lines, "%s\n", set->words[w] + strlen("--server-conf="));
    int rc = 0;
    for (int b = 0; b < (builds->n ? builds->n : 1) && rc == 0; b++) {
        struct server_install in, *pin = NULL;
        char why[1500];
        const char *dir = builds->n ? builds->v[b].words[0] + strlen("--server-bin=") : NULL;
        if (dir && server_install_find(engine, dir, &in, why, sizeof why) == 0)
            pin = &in;
        if (server_check_request_from(engine, pin, NULL, NULL, lines.s, why, sizeof why) < 0) {
            snprintf(err, errlen, "--settings %s%s%s: %s", set->label,
                     builds->n ? " with build " : "", builds->n ? builds->v[b].label : "", why);
            rc = -1;
        }
    }
    sbuf_free(&lines);
    return rc;
}

int study_axes_settings(const struct opts *o, char *const *cmd, int ncmd, int engine,
                        const struct study_axis *builds, struct study_axis *ax, char *err,
                        size_t errlen)
{
    size_t n;
    const char *const *s = opts_list(o, "settings", &n);
    *ax = (struct study_axis){"settings", NULL, 0};
    if (!n)
        return 0;
    const char *why = not_managed(cmd, ncmd) ? not_managed(cmd, ncmd)
                      : engine < 0           ? "the command's --db-driver names no server engine"
                                             : NULL;
    if (why) {
        snprintf(err, errlen, "--settings: server settings are a managed server's: %s", why);
        return -1;
    }
    ax->v = xcalloc(n, sizeof *ax->v);
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(s[i], '=');
        if (!eq || !study_label_ok(s[i], (size_t)(eq - s[i]))) {
            snprintf(err, errlen,
                     "--settings '%s': LABEL=KEY=VALUE (LABEL= alone: the defaults), LABEL 1-31 "
                     "of A-Za-z0-9._+-, not starting with '.' or '-'",
                     s[i]);
            return -1;
        }
        int k = set_of(ax->v, ax->n, s[i], (size_t)(eq - s[i]));
        if (k == ax->n) {
            if (ax->n == STUDY_AXIS_MAX) {
                snprintf(err, errlen, "--settings: more sets than a study has variants");
                return -1;
            }
            snprintf(ax->v[ax->n++].label, STUDY_LABEL, "%.*s", (int)(eq - s[i]), s[i]);
        }
        if (eq[1])
            add_word(&ax->v[k], "--server-conf=%s", eq + 1);
    }
    for (int k = 0; k < ax->n; k++)
        if (check_set(&ax->v[k], engine, builds, err, errlen) < 0)
            return -1;
    return 0;
}

void study_axes_free(struct study_axis *ax)
{
    for (int k = 0; ax->v && k < ax->n; k++) {
        for (int w = 0; w < ax->v[k].nwords; w++)
            free(ax->v[k].words[w]);
        free(ax->v[k].words);
    }
    free(ax->v);
    ax->v = NULL;
    ax->n = 0;
}
