/*
 * page_tables.c - the tables of the page and its study section.
 *
 * The one idea: a table is curves down, thread counts across (the union of
 * every curve's thread counts, so columns line up and a missing level is a
 * "-"), and every cell is a figure plot.c computed into struct plot_curve;
 * relative % goes through stats_relpct() as compare does. The study section
 * shows meta.json as it was written, each value escaped.
 *
 * Never compute statistics here; never let a string from a file reach the
 * page but through page_esc().
 */
#include "results/page_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/page_headline.h"
#include "results/meta_command.h"
#include "results/page.h"
#include "results/page_html.h"
#include "stats/stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The sorted union of the curves' thread counts. */
static size_t thread_columns(const struct plot *p, double *col, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < p->nc; i++)
        for (size_t t = 0; t < p->c[i].k; t++) {
            int seen = 0;
            for (size_t j = 0; j < n && !seen; j++)
                seen = col[j] == p->c[i].n[t];
            if (!seen && n < max)
                col[n++] = p->c[i].n[t];
        }
    qsort(col, n, sizeof *col, cmp_double);
    return n;
}

static int point_at(const struct plot_curve *c, double threads)
{
    for (size_t t = 0; t < c->k; t++)
        if (c->n[t] == threads)
            return (int)t;
    return -1;
}

static void head(struct sbuf *b, const char *first, const double *col, size_t ncol)
{
    sbuf_printf(b, "<table>\n<tr><th>%s</th>", first);
    for (size_t j = 0; j < ncol; j++)
        sbuf_printf(b, "<th>%g</th>", col[j]);
    sbuf_printf(b, "</tr>\n");
}

static void curve_cell(struct sbuf *b, const struct plot *p, size_t i)
{
    sbuf_printf(b, "<tr><th class=\"curve\">c%zu ", i + 1);
    page_esc(b, p->c[i].label);
    sbuf_printf(b, "</th>");
}

/* One row per curve; cell(c, t, buf) formats point t, or the cell is "-". */
typedef void (*cell_fn)(const struct plot_curve *c, size_t t, char *buf, size_t len);

static void table(const struct plot *p, struct sbuf *b, const char *first, cell_fn cell)
{
    double col[PLOT_MAXPTS];
    size_t ncol = thread_columns(p, col, PLOT_MAXPTS);
    head(b, first, col, ncol);
    for (size_t i = 0; i < p->nc; i++) {
        curve_cell(b, p, i);
        for (size_t j = 0; j < ncol; j++) {
            int t = point_at(&p->c[i], col[j]);
            char buf[160] = "-";
            if (t >= 0)
                cell(&p->c[i], (size_t)t, buf, sizeof buf);
            sbuf_printf(b, "<td>%s</td>", buf); /* numbers only: formatted here */
        }
        sbuf_printf(b, "</tr>\n");
    }
    sbuf_printf(b, "</table>\n");
}

static void cell_tps(const struct plot_curve *c, size_t t, char *buf, size_t len)
{
    const struct stats_summary *s = &c->tp[t];
    if (s->n < 2)
        snprintf(buf, len, "%.1f<br><small>n=1</small>", s->median);
    else
        snprintf(buf, len, "%.1f<br><small>%.1f&ndash;%.1f, sd %.1f%%, n=%zu</small>", s->median,
                 s->min, s->max, s->mean > 0 ? 100 * s->sd / s->mean : 0, s->n);
}

static void cell_speedup(const struct plot_curve *c, size_t t, char *buf, size_t len)
{
    if (isnan(c->cpu_speedup[t]))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.2fx<br><small>%.0f%% of %d CPUs</small>", c->cpu_speedup[t],
                 100 * c->cpu_eff[t], c->cpus);
}

static void cell_latency(const struct plot_curve *c, size_t t, char *buf, size_t len)
{
    if (isnan(c->p95[t])) /* results.h: not measured, never 0 */
        snprintf(buf, len, "not measured");
    else
        snprintf(buf, len, "%.3f<br><small>p50 %.3f, p99 %.3f</small>", c->p95[t], c->p50[t],
                 c->p99[t]);
}

void page_table_tps(const struct plot *p, struct sbuf *b)
{
    table(p, b, "median TPS (min&ndash;max, sd) by threads", cell_tps);
}

void page_table_speedup(const struct plot *p, struct sbuf *b)
{
    table(p, b, "speedup over the fewest CPUs by threads", cell_speedup);
}

void page_table_latency(const struct plot *p, struct sbuf *b)
{
    table(p, b, "p95 latency ms by threads", cell_latency);
}

void page_table_usl(const struct plot *p, struct sbuf *b)
{
    sbuf_printf(b, "<table>\n<tr><th>curve</th><th>&sigma;</th><th>&kappa;</th><th>&lambda; "
                   "tps/thread</th><th>R&sup2;</th><th>N*</th><th>peak</th><th>knee</th></tr>\n");
    for (size_t i = 0; i < p->nc; i++) {
        const struct plot_curve *c = &p->c[i];
        curve_cell(b, p, i);
        if (c->fit_ok) {
            sbuf_printf(b, "<td>%.4f</td><td>%.5f</td><td>%.1f</td><td>%.3f</td>", c->usl.sigma,
                        c->usl.kappa, c->usl.lambda, c->usl.r2);
            if (isinf(c->usl.nstar))
                sbuf_printf(b, "<td>&infin;</td>");
            else
                sbuf_printf(b, "<td>%.1f</td>", c->usl.nstar);
        } else {
            sbuf_printf(b, "<td colspan=\"5\">no fit: ");
            page_esc(b, c->nofit);
            sbuf_printf(b, "</td>");
        }
        if (c->k)
            sbuf_printf(b, "<td>%.0f tps @ %g</td>", c->x[c->peak], c->n[c->peak]);
        else
            sbuf_printf(b, "<td>-</td>");
        if (c->knee < c->k)
            sbuf_printf(b, "<td>%g</td></tr>\n", c->n[c->knee]);
        else
            sbuf_printf(b, "<td>none</td></tr>\n");
    }
    sbuf_printf(b, "</table>\n");
}

/* The repeats of curve c at threads: its rows' tps, into v (at most max). */
static size_t repeats(const struct plot *p, const struct plot_curve *c, double threads, double *v,
                      size_t max)
{
    const struct result_set *rs = &p->dirs[c->dir].rs;
    size_t n = 0;
    for (size_t i = 0; i < rs->n && n < max; i++) {
        const struct result_row *r = &rs->rows[i];
        if (r->threads == threads && r->cpus == c->cpus && !strcmp(r->engine, c->engine) &&
            !strcmp(r->workload, c->workload) && !strcmp(r->variant, c->variant))
            v[n++] = r->tps;
    }
    return n;
}

/* compare's marks: * significant (Welch, 95%), ~ no difference proven,
 * nothing with fewer than two repeats a side. */
static const char *welch_mark(const struct plot *p, const struct plot_curve *a,
                              const struct plot_curve *b, double threads)
{
    double va[256], vb[256];
    size_t na = repeats(p, a, threads, va, 256), nb = repeats(p, b, threads, vb, 256);
    struct stats_welch w;
    if (stats_welch(va, na, vb, nb, &w) < 0)
        return "";
    return w.significant ? "*" : "~";
}

void page_table_relative(const struct plot *p, struct sbuf *b)
{
    double col[PLOT_MAXPTS];
    size_t ncol = thread_columns(p, col, PLOT_MAXPTS), rows = 0;
    for (size_t i = 0; i < p->nc; i++) {
        int m = page_match(p, i);
        if (m < 0)
            continue;
        if (!rows++)
            head(b, "relative % of median TPS against the first directory", col, ncol);
        curve_cell(b, p, i);
        for (size_t j = 0; j < ncol; j++) {
            int t = point_at(&p->c[i], col[j]), u = point_at(&p->c[m], col[j]);
            long long rel;
            if (t >= 0 && u >= 0 && stats_relpct(p->c[i].x[t], p->c[m].x[u], &rel) == 0)
                sbuf_printf(b, "<td class=\"%s\">%+lld%%%s</td>", rel < 0 ? "neg" : "pos", rel,
                            welch_mark(p, &p->c[i], &p->c[m], col[j]));
            else
                sbuf_printf(b, "<td>-</td>");
        }
        sbuf_printf(b, "</tr>\n");
    }
    if (rows)
        sbuf_printf(b, "</table>\n<p class=\"note\">Each curve against the curve of the first "
                       "directory with the same workload, variant and CPU count: "
                       "floor((later / first - 1) &times; 100), as <code>dbscale "
                       "compare</code> computes it; * the difference is significant "
                       "(Welch's t-test over the repeats, 95%%), ~ no difference proven, no "
                       "mark: fewer than two repeats a side.</p>\n");
    else
        sbuf_printf(b, "<p class=\"note\">No curve of a later directory has the same workload, "
                       "variant and CPU count as one of the first.</p>\n");
}

/* ---- the study ---- */

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
    else if (json_is_object(v)) {
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
static const json_t *meta_get(const struct plot_dir *d, const char *const *keys)
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

int page_command(const struct plot_dir *d, struct sbuf *cmd, int *left_out)
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

static void study_row(struct sbuf *b, const char *name, const struct plot_dir *d,
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
    {"server managed by", {"server"}},
    {"CPU method", {"cpu_method"}},
    {"dbscale", {"dbscale_version"}},
    {"commit", {"git_commit", "git"}},
    {"started", {"started", "start"}},
    {"ended", {"ended", "end"}},
};

void page_study(const struct plot *p, struct sbuf *b)
{
    for (size_t i = 0; i < p->ndirs; i++) {
        const struct plot_dir *d = &p->dirs[i];
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
