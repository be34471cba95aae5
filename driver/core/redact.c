/*
 * redact.c - secrets out of what dbscale shows and stores.
 *
 * The one idea: a conninfo is parsed by libpq itself (PQconninfoParse reads
 * both the keyword form and the URI, userinfo and ?password= alike), and the
 * fields libpq marks secret (dispchar "*") are masked; nothing is guessed by a
 * parser of our own that could disagree with the one that connects. A string
 * libpq cannot parse is not shown at all.
 *
 * It must never return any byte of a secret, nor any part of an input it
 * could not parse.
 */
#include "core/redact.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* key='value' with ' and \ escaped, as libpq's keyword form wants. */
static int put_pair(char *out, size_t n, size_t *o, const char *key, const char *val)
{
    int w = snprintf(out + *o, n - *o, "%s%s='", *o ? " " : "", key);
    if (w < 0 || (size_t)w >= n - *o)
        return -1;
    *o += (size_t)w;
    for (const char *p = val; *p; p++) {
        if (*o + 3 >= n)
            return -1;
        if (*p == '\'' || *p == '\\')
            out[(*o)++] = '\\';
        out[(*o)++] = *p;
    }
    if (*o + 2 > n)
        return -1;
    out[(*o)++] = '\'';
    out[*o] = '\0';
    return 0;
}

int redact_conninfo(const char *in, char *out, size_t n)
{
    static const char placeholder[] = "(conninfo not shown)";
    if (n == 0)
        return -1;
    char *perr = NULL;
    PQconninfoOption *opts = PQconninfoParse(in ? in : "", &perr);
    PQfreemem(perr); /* its words may quote the input */
    if (!opts) {
        snprintf(out, n, "%s", placeholder);
        return -1;
    }
    int secret = 0;
    for (PQconninfoOption *c = opts; c->keyword; c++)
        if (c->val && c->dispchar && c->dispchar[0] == '*')
            secret = 1;
    int rc = 0;
    if (!secret) {
        if (strlen(in) >= n)
            rc = -1;
        else
            snprintf(out, n, "%s", in);
    } else {
        size_t o = 0;
        out[0] = '\0';
        rc = 1;
        for (PQconninfoOption *c = opts; c->keyword && rc == 1; c++) {
            if (!c->val)
                continue;
            int mask = c->dispchar && c->dispchar[0] == '*';
            if (put_pair(out, n, &o, c->keyword, mask ? REDACT_MASK : c->val) < 0)
                rc = -1;
        }
    }
    PQconninfoFree(opts);
    if (rc < 0)
        snprintf(out, n, "%s", placeholder);
    return rc;
}

int redact_is_conninfo_opt(const char *name)
{
    size_t l = strlen(name), k = strlen("conninfo");
    return l >= k && strcmp(name + l - k, "conninfo") == 0;
}

void redact_opts_json(const struct opts *o, struct sbuf *b)
{
    /* A shallow copy whose conninfo values are the redacted ones. */
    struct opts shown = *o;
    shown.val = xcalloc(o->n ? o->n : 1, sizeof *shown.val);
    char **made = xcalloc(o->n ? o->n : 1, sizeof *made);
    for (size_t i = 0; i < o->n; i++) {
        const char *v = o->val[i] ? o->val[i] : o->defs[i].def;
        shown.val[i] = o->val[i];
        if (v && redact_is_conninfo_opt(o->defs[i].name)) {
            size_t n = strlen(v) * 3 + 256;
            made[i] = xmalloc(n);
            redact_conninfo(v, made[i], n);
            shown.val[i] = made[i];
        }
    }
    opts_json(&shown, b);
    for (size_t i = 0; i < o->n; i++)
        free(made[i]);
    free(made);
    free(shown.val);
}
