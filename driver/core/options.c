/*
 * options.c - the option table behind every verb and every config file.
 *
 * Values are kept as text and validated when set, never when read: by the
 * time a verb calls opts_int() the value is known to be good, so getters need
 * no error path. A typo gets the nearest known name as a hint. A name is
 * matched with '_' and '-' alike, as sysbench does, so the one table serves
 * --table-size, --table_size and "table_size=" in a config file; what is
 * stored and shown is always the table's spelling. The values' two sources
 * sit above this file and call down into it: the command line
 * (options_argv.c) and config files (options_ini.c); it calls neither.
 */
#include "core/options.h"
#include "core/options_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

void opts_init(struct opts *o, const struct optdef *defs, size_t n)
{
    o->defs = defs;
    o->n = n;
    o->val = xcalloc(n, sizeof *o->val);
    o->where = xcalloc(n, sizeof *o->where);
    o->list = xcalloc(n, sizeof *o->list);
    o->warnings = NULL;
}

static void list_clear(struct opts_list *l)
{
    for (size_t k = 0; k < l->n; k++)
        free(l->v[k]);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

void opts_free(struct opts *o)
{
    for (size_t i = 0; i < o->n; i++) {
        free(o->val[i]);
        free(o->where[i]);
        list_clear(&o->list[i]);
    }
    free(o->val);
    free(o->where);
    free(o->list);
    free(o->warnings);
    o->val = o->where = NULL;
    o->list = NULL;
    o->warnings = NULL;
}

/* '_' and '-' are one character in option names. */
int opts_name_eq(const char *a, const char *b, size_t len)
{
    for (size_t k = 0; k < len; k++) {
        char x = a[k] == '_' ? '-' : a[k], y = b[k] == '_' ? '-' : b[k];
        if (x != y || !x)
            return 0;
    }
    return b[len] == '\0';
}

long opts_find(const struct opts *o, const char *name, size_t len)
{
    for (size_t i = 0; i < o->n; i++)
        if (strlen(o->defs[i].name) == len && opts_name_eq(name, o->defs[i].name, len))
            return (long)i;
    return -1;
}

/* An alias's index resolved to the option it sets (one level: an alias of
 * an alias is a table bug). */
long opts_resolve(const struct opts *o, long i)
{
    if (i >= 0 && o->defs[i].type == OPT_ALIAS && o->defs[i].def)
        return opts_find(o, o->defs[i].def, strlen(o->defs[i].def));
    return i;
}

int opts_choice_ok(const char *choices, const char *v)
{
    size_t vl = strlen(v);
    for (const char *p = choices; *p;) {
        const char *bar = strchr(p, '|');
        size_t l = bar ? (size_t)(bar - p) : strlen(p);
        if (l == vl && strncmp(p, v, l) == 0)
            return 1;
        p += l + (bar ? 1 : 0);
    }
    return 0;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    size_t d[41][41];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

static const char *nearest(const struct opts *o, const char *name)
{
    const char *best = NULL;
    size_t bestd = 4;
    char dashed[64];
    snprintf(dashed, sizeof dashed, "%s", name);
    for (char *p = dashed; *p; p++)
        if (*p == '_')
            *p = '-';
    for (size_t i = 0; i < o->n; i++) {
        if (o->defs[i].type == OPT_REFUSED)
            continue;
        size_t d = edit_distance(dashed, o->defs[i].name);
        if (d < bestd) {
            bestd = d;
            best = o->defs[i].name;
        }
    }
    return best;
}

static int validate(const struct optdef *d, const char *v, char *err, size_t errlen,
                    const char *where)
{
    long long iv;
    double dv;
    int bv;
    int bounded = d->min != d->max;
    switch (d->type) {
    case OPT_INT:
    case OPT_SIZE:
        if (d->type == OPT_INT && parse_int(v, &iv) < 0) {
            snprintf(err, errlen, "%s: --%s: '%s' is not a whole number", where, d->name, v);
            return -1;
        }
        if (d->type == OPT_SIZE && parse_size(v, &iv) < 0) {
            snprintf(err, errlen,
                     "%s: --%s: '%s' is not a whole number (a K, M, G or T suffix multiplies by "
                     "1024 each)",
                     where, d->name, v);
            return -1;
        }
        if (bounded && (iv < d->min || iv > d->max)) {
            snprintf(err, errlen, "%s: --%s: %lld is out of range [%.0f, %.0f]", where, d->name, iv,
                     d->min, d->max);
            return -1;
        }
        return 0;
    case OPT_NUM:
        if (parse_num(v, &dv) < 0) {
            snprintf(err, errlen, "%s: --%s: '%s' is not a number", where, d->name, v);
            return -1;
        }
        if (bounded && (dv < d->min || dv > d->max)) {
            snprintf(err, errlen, "%s: --%s: %g is out of range [%g, %g]", where, d->name, dv,
                     d->min, d->max);
            return -1;
        }
        return 0;
    case OPT_BOOL:
        if (parse_bool(v, &bv) < 0) {
            snprintf(err, errlen, "%s: --%s: '%s' is not on/off", where, d->name, v);
            return -1;
        }
        return 0;
    case OPT_COUNTS: {
        /* "4k" scales later with a CPU count; here it only has to be a count */
        char plain[512];
        size_t o = 0;
        for (const char *p = v; *p && o + 1 < sizeof plain; p++)
            if (*p != 'k')
                plain[o++] = *p;
        plain[o] = '\0';
        long long tmp[256];
        int n = strlen(v) < sizeof plain ? parse_int_list(plain, tmp, 256) : -1;
        for (int i = 0; i < n; i++)
            if (tmp[i] < 1)
                n = -1;
        if (n <= 0) {
            snprintf(err, errlen,
                     "%s: --%s: '%s' is not a list of counts like 1,2,8 or 1-64 or 1-256:x2", where,
                     d->name, v);
            return -1;
        }
        return 0;
    }
    case OPT_CHOICE:
        if (!opts_choice_ok(d->choices, v)) {
            snprintf(err, errlen, "%s: --%s: '%s' is not one of %s", where, d->name, v, d->choices);
            return -1;
        }
        return 0;
    default:
        return 0;
    }
}

/* "FILE:LINE" and "FILE:OTHER" are one source; so is "command line" twice. */
static int same_source(const char *a, const char *b)
{
    const char *ca = strrchr(a, ':'), *cb = strrchr(b, ':');
    size_t la = ca ? (size_t)(ca - a) : strlen(a), lb = cb ? (size_t)(cb - b) : strlen(b);
    return la == lb && strncmp(a, b, la) == 0;
}

int opts_set(struct opts *o, const char *name, const char *value, const char *where, char *err,
             size_t errlen)
{
    long i = opts_find(o, name, strlen(name));
    if (i < 0) {
        const char *near = nearest(o, name);
        if (near)
            snprintf(err, errlen, "%s: unknown option '--%s' (did you mean '--%s'?)", where, name,
                     near);
        else
            snprintf(err, errlen, "%s: unknown option '--%s'", where, name);
        return -1;
    }
    if (o->defs[i].type == OPT_REFUSED) {
        snprintf(err, errlen, "%s: --%s is not supported: %s", where, o->defs[i].name,
                 o->defs[i].help);
        return -1;
    }
    if (o->defs[i].type == OPT_ALIAS) {
        long t = opts_resolve(o, i);
        if (t < 0 || t == i) {
            snprintf(err, errlen, "%s: --%s: internal error: alias of nothing", where, name);
            return -1;
        }
        /* sysbench's words, so a script that greps its stderr still matches */
        char line[256];
        snprintf(line, sizeof line, "WARNING: --%s is deprecated, use --%s instead\n",
                 o->defs[i].name, o->defs[t].name);
        if (!o->warnings || !strstr(o->warnings, line)) {
            size_t have = o->warnings ? strlen(o->warnings) : 0;
            o->warnings = xrealloc(o->warnings, have + strlen(line) + 1);
            memcpy(o->warnings + have, line, strlen(line) + 1);
        }
        i = t;
    }
    const struct optdef *d = &o->defs[i];
    /* "--out=" is a mistake, not a choice: no text option means "" (a
     * password may be empty) */
    if (!*value && (d->type == OPT_STR || d->type == OPT_LIST)) {
        snprintf(err, errlen, "%s: --%s: empty value", where, d->name);
        return -1;
    }
    if (validate(d, value, err, errlen, where) < 0)
        return -1;
    if (d->type == OPT_LIST) {
        /* a repeated option on the same source appends; another source
         * (the command line over a file) replaces the list */
        struct opts_list *l = &o->list[i];
        if (!(o->where[i] && same_source(o->where[i], where)))
            list_clear(l);
        l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
        l->v[l->n++] = xstrdup(value);
    }
    if (d->type == OPT_LIST && o->val[i] && o->where[i] && same_source(o->where[i], where)) {
        size_t l = strlen(o->val[i]) + strlen(value) + 2;
        char *j = xmalloc(l);
        snprintf(j, l, "%s,%s", o->val[i], value);
        free(o->val[i]);
        o->val[i] = j;
    } else {
        free(o->val[i]);
        o->val[i] = xstrdup(value);
    }
    free(o->where[i]);
    o->where[i] = xstrdup(where);
    return 0;
}

static long must_find(const struct opts *o, const char *name)
{
    long i = opts_find(o, name, strlen(name));
    if (i < 0) {
        fprintf(stderr, "dbscale: internal error: no option '%s' in this table\n", name);
        abort();
    }
    return i;
}

const char *opts_str(const struct opts *o, const char *name)
{
    long i = must_find(o, name);
    return o->val[i] ? o->val[i] : o->defs[i].def;
}

int opts_isset(const struct opts *o, const char *name)
{
    return o->val[must_find(o, name)] != NULL;
}

const char *const *opts_list(const struct opts *o, const char *name, size_t *n)
{
    long i = must_find(o, name);
    if (o->list[i].n) {
        *n = o->list[i].n;
        return (const char *const *)o->list[i].v;
    }
    *n = o->defs[i].def ? 1 : 0;
    return *n ? &o->defs[i].def : NULL;
}

char *opts_lines(const struct opts *o, const char *name)
{
    size_t n;
    const char *const *v = opts_list(o, name, &n);
    if (!n)
        return NULL;
    struct sbuf b = {0};
    for (size_t k = 0; k < n; k++)
        sbuf_printf(&b, "%s%s", k ? "\n" : "", v[k]);
    return b.s ? b.s : xstrdup("");
}

long long opts_int(const struct opts *o, const char *name)
{
    const char *s = opts_str(o, name);
    long long v = 0;
    if (s && o->defs[must_find(o, name)].type == OPT_SIZE)
        parse_size(s, &v);
    else if (s)
        parse_int(s, &v);
    return v;
}

const char *opts_warnings(const struct opts *o)
{
    return o->warnings;
}

double opts_num(const struct opts *o, const char *name)
{
    if (o->defs[must_find(o, name)].type == OPT_SIZE)
        return (double)opts_int(o, name); /* "10K" is 10240, not text */
    const char *s = opts_str(o, name);
    double v = 0;
    if (s)
        parse_num(s, &v);
    return v;
}

int opts_bool(const struct opts *o, const char *name)
{
    const char *s = opts_str(o, name);
    int v = 0;
    if (s)
        parse_bool(s, &v);
    return v;
}

int opts_bind(const struct opts *o, const struct opt_bind *b, size_t n, void *dst, char *err,
              size_t errlen)
{
    for (size_t k = 0; k < n; k++) {
        char *at = (char *)dst + b[k].off;
        if (opts_find(o, b[k].name, strlen(b[k].name)) < 0) {
            snprintf(err, errlen, "internal error: no option '%s' to bind", b[k].name);
            return -1;
        }
        switch (b[k].as) {
        case OPT_STR:
            *(const char **)(void *)at = opts_str(o, b[k].name);
            break;
        case OPT_INT:
            *(long long *)(void *)at = opts_int(o, b[k].name);
            break;
        case OPT_NUM:
            *(double *)(void *)at = opts_num(o, b[k].name);
            break;
        case OPT_BOOL:
            *(int *)(void *)at = opts_bool(o, b[k].name);
            break;
        default:
            snprintf(err, errlen, "internal error: option '%s' bound as no C type", b[k].name);
            return -1;
        }
    }
    return 0;
}

void opts_help(const struct opts *o, FILE *f)
{
    for (size_t i = 0; i < o->n; i++) {
        const struct optdef *d = &o->defs[i];
        if (d->type == OPT_REFUSED)
            continue;
        char left[64];
        long t = opts_resolve(o, (long)i);
        const struct optdef *td = t >= 0 ? &o->defs[t] : d;
        snprintf(left, sizeof left, "--%s=%s", d->name,
                 td->type == OPT_BOOL   ? "[on|off]"
                 : td->type == OPT_INT  ? "N"
                 : td->type == OPT_NUM  ? "N"
                 : td->type == OPT_SIZE ? "SIZE"
                                        : "STRING");
        if (d->type == OPT_ALIAS) {
            fprintf(f, "  %-30s deprecated alias for --%s\n", left, d->def);
            continue;
        }
        fprintf(f, "  %-30s %s", left, d->help);
        if (d->type == OPT_CHOICE)
            fprintf(f, " {%s}", d->choices);
        if (d->def && d->type != OPT_SECRET)
            fprintf(f, " [%s]", d->def);
        fputc('\n', f);
    }
}

void opts_json(const struct opts *o, struct sbuf *b)
{
    int first = 1;
    sbuf_add(b, "{", 1);
    for (size_t i = 0; i < o->n; i++) {
        const struct optdef *d = &o->defs[i];
        const char *v = o->val[i] ? o->val[i] : d->def;
        if (!v || d->type == OPT_SECRET || d->type == OPT_ALIAS || d->type == OPT_REFUSED)
            continue;
        sbuf_printf(b, "%s", first ? "" : ", ");
        first = 0;
        sbuf_json(b, d->name);
        sbuf_add(b, ": ", 2);
        sbuf_json(b, v);
    }
    sbuf_add(b, "}", 1);
}
