/*
 * plot.c - `dbscale plot RESULTS_DIR...`: scaling graphs and the statistics
 * table for one or several results directories.
 *
 * The one idea: C computes, gnuplot draws. Every number on a graph (medians,
 * error bars, ideal line, speedup, USL fit curve) is computed here with
 * stats.h and written to a plain data file; the drawing lives in
 * graphs/NAME.gp, copied into the out directory with a tiny generated script
 * that only names the data files and labels. So a user can edit a style and
 * re-run `gnuplot NAME.gp` by hand, and the numbers in summary.md are the
 * ones on the pictures.
 *
 * Never silently make a broken picture: gnuplot's stderr is captured and an
 * error from it fails the verb with its message.
 */
#include "plot.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare.h"
#include "options.h"
#include "results.h"
#include "stats.h"
#include "verbs.h"

#define MAXPTS   64
#define MAXMICRO 8

struct pdir {
    char path[512], name[64];
    char host[64], kernel[96], server[64]; /* from meta.json, "" when absent */
    struct result_set rs;
};

struct curve {
    int dir;
    char engine[16], workload[32], variant[32];
    int cpus;
    size_t k;
    double n[MAXPTS], x[MAXPTS]; /* threads, median throughput */
    struct stats_summary tp[MAXPTS];
    double p50[MAXPTS], p95[MAXPTS], p99[MAXPTS];
    int fit_ok;
    struct stats_usl usl;
    size_t peak, knee;
    char label[256];
};

struct micro_curve {
    char label[160];
    size_t k;
    double n[MAXPTS], x[MAXPTS];
};

struct plot {
    const char *out;
    struct pdir *dirs;
    size_t ndirs;
    struct curve *c;
    size_t nc;
    struct micro_curve mc[MAXMICRO];
    size_t nmc;
    char subtitle[512];
};

/* ---- meta.json: a few string fields, found by key anywhere in the file ---- */

static void json_field(const char *js, const char *const *keys, char *out, size_t len)
{
    out[0] = '\0';
    for (; *keys && !out[0]; keys++) {
        char pat[64];
        snprintf(pat, sizeof pat, "\"%s\"", *keys);
        const char *p = strstr(js, pat);
        if (!p)
            continue;
        p += strlen(pat);
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (*p++ != ':')
            continue;
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (*p != '"')
            continue;
        size_t i = 0;
        for (p++; *p && *p != '"' && i + 1 < len; p++)
            out[i++] = (*p == '\\' && p[1]) ? *++p : *p;
        out[i] = '\0';
    }
}

static void read_meta(struct pdir *d)
{
    char path[600];
    snprintf(path, sizeof path, "%s/meta.json", d->path);
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    struct sbuf b = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0 && b.len < (1 << 20))
        sbuf_add(&b, buf, n);
    fclose(f);
    if (!b.s)
        return;
    static const char *const host[] = {"hostname", "host", "nodename", NULL};
    static const char *const kernel[] = {"kernel", "kernel_release", "uname", "release", NULL};
    static const char *const server[] = {"server_version", NULL};
    json_field(b.s, host, d->host, sizeof d->host);
    json_field(b.s, kernel, d->kernel, sizeof d->kernel);
    json_field(b.s, server, d->server, sizeof d->server);
    sbuf_free(&b);
}

/* ---- curves ---- */

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static struct curve *find_curve(struct plot *p, int dir, const struct result_row *r)
{
    for (size_t i = 0; i < p->nc; i++) {
        struct curve *c = &p->c[i];
        if (c->dir == dir && c->cpus == r->cpus && !strcmp(c->engine, r->engine) &&
            !strcmp(c->workload, r->workload) && !strcmp(c->variant, r->variant))
            return c;
    }
    p->c = xrealloc(p->c, (p->nc + 1) * sizeof *p->c);
    struct curve *c = &p->c[p->nc++];
    memset(c, 0, sizeof *c);
    c->dir = dir;
    c->cpus = r->cpus;
    snprintf(c->engine, sizeof c->engine, "%s", r->engine);
    snprintf(c->workload, sizeof c->workload, "%s", r->workload);
    snprintf(c->variant, sizeof c->variant, "%s", r->variant);
    return c;
}

static void build_curve(struct plot *p, struct curve *c)
{
    const struct result_set *rs = &p->dirs[c->dir].rs;
    int th[MAXPTS];
    size_t nth = 0;
    for (size_t i = 0; i < rs->n; i++) {
        const struct result_row *r = &rs->rows[i];
        if (find_curve(p, c->dir, r) != c)
            continue;
        int seen = 0;
        for (size_t j = 0; j < nth; j++)
            seen |= th[j] == r->threads;
        if (!seen && nth < MAXPTS)
            th[nth++] = r->threads;
    }
    qsort(th, nth, sizeof *th, cmp_int);
    double *v = xmalloc((rs->n + 1) * sizeof *v), *l50 = xmalloc((rs->n + 1) * sizeof *v),
           *l95 = xmalloc((rs->n + 1) * sizeof *v), *l99 = xmalloc((rs->n + 1) * sizeof *v);
    for (size_t t = 0; t < nth; t++) {
        size_t m = 0;
        for (size_t i = 0; i < rs->n; i++) {
            const struct result_row *r = &rs->rows[i];
            if (r->threads != th[t] || find_curve(p, c->dir, r) != c)
                continue;
            v[m] = r->tps, l50[m] = r->lat_p50_ms, l95[m] = r->lat_p95_ms;
            l99[m++] = r->lat_p99_ms;
        }
        c->n[t] = th[t];
        stats_summarize(v, m, &c->tp[t]);
        c->x[t] = c->tp[t].median;
        c->p50[t] = stats_median(l50, m);
        c->p95[t] = stats_median(l95, m);
        c->p99[t] = stats_median(l99, m);
    }
    free(v), free(l50), free(l95), free(l99);
    c->k = nth;
    c->fit_ok = stats_usl_fit(c->n, c->x, c->k, &c->usl) == 0;
    c->peak = stats_peak(c->x, c->k);
    c->knee = stats_knee(c->n, c->x, c->k);
}

static void label_curves(struct plot *p)
{
    int same_host = 1;
    for (size_t d = 1; d < p->ndirs; d++)
        same_host &= !strcmp(p->dirs[d].host, p->dirs[0].host) &&
                     !strcmp(p->dirs[d].kernel, p->dirs[0].kernel);
    for (size_t i = 0; i < p->nc; i++) {
        struct curve *c = &p->c[i];
        const struct pdir *d = &p->dirs[c->dir];
        int n = snprintf(c->label, sizeof c->label, "%s%s%s%s, %s%s%s, %d CPU%s", c->engine,
                         d->server[0] ? " (" : "", d->server, d->server[0] ? ")" : "", c->workload,
                         c->workload[0] ? ", " : "", c->variant, c->cpus, c->cpus == 1 ? "" : "s");
        if (!same_host && n > 0 && (size_t)n < sizeof c->label)
            snprintf(c->label + n, sizeof c->label - (size_t)n, ", %s %s", d->host, d->kernel);
    }
    /* Two directories with the same engine and variant: name the directory. */
    int *dup = xcalloc(p->nc + 1, sizeof *dup);
    for (size_t i = 0; i < p->nc; i++)
        for (size_t j = 0; j < p->nc; j++)
            dup[i] |= i != j && p->c[i].dir != p->c[j].dir && !strcmp(p->c[i].label, p->c[j].label);
    for (size_t i = 0; i < p->nc; i++) {
        size_t n = strlen(p->c[i].label);
        if (dup[i] && n < sizeof p->c[i].label)
            snprintf(p->c[i].label + n, sizeof p->c[i].label - n, " [%s]",
                     p->dirs[p->c[i].dir].name);
    }
    free(dup);
    int n = 0;
    if (same_host && (p->dirs[0].host[0] || p->dirs[0].kernel[0]))
        n = snprintf(p->subtitle, sizeof p->subtitle, "host %s, %s; ",
                     p->dirs[0].host[0] ? p->dirs[0].host : "?", p->dirs[0].kernel);
    n = n < 0 ? 0 : n;
    snprintf(p->subtitle + n, sizeof p->subtitle - (size_t)n, "results: ");
    for (size_t d = 0; d < p->ndirs; d++) {
        size_t l = strlen(p->subtitle);
        snprintf(p->subtitle + l, sizeof p->subtitle - l, "%s%s", d ? ", " : "", p->dirs[d].name);
    }
}

/* Kernel baseline: one curve per (test, mode) from micro.csv, threads mode
 * first, at the largest CPU count it was run with (at one CPU nothing scales). */
static void load_micro(struct plot *p)
{
    for (int pass = 0; pass < 2; pass++)
        for (size_t d = 0; d < p->ndirs; d++) {
            char path[600];
            snprintf(path, sizeof path, "%s/micro.csv", p->dirs[d].path);
            if (access(path, R_OK) != 0)
                continue;
            struct compare_sets ss = {0};
            char err[512];
            if (compare_load(&ss, path, err, sizeof err) < 0) {
                warnx_("kernel baseline left out: %s", err);
                compare_sets_free(&ss);
                continue;
            }
            const struct compare_set *s = &ss.s[0];
            int maxcpus = 0;
            for (size_t i = 0; i < s->n; i++)
                maxcpus = atoi(s->pts[i].f[3]) > maxcpus ? atoi(s->pts[i].f[3]) : maxcpus;
            for (size_t i = 0; i < s->n; i++) {
                const struct compare_point *pt = &s->pts[i];
                int threads = !strcmp(pt->f[1], "t");
                if (threads != (pass == 0) || pt->n == 0 || atoi(pt->f[3]) != maxcpus)
                    continue;
                char label[160];
                if (maxcpus > 0)
                    snprintf(label, sizeof label, "kernel: %.40s (%s), %d CPU%s", pt->f[0],
                             threads ? "threads" : "processes", maxcpus, maxcpus > 1 ? "s" : "");
                else
                    snprintf(label, sizeof label, "kernel: %.40s (%s)", pt->f[0],
                             threads ? "threads" : "processes");
                struct micro_curve *m = NULL;
                for (size_t j = 0; j < p->nmc && !m; j++)
                    if (!strcmp(p->mc[j].label, label))
                        m = &p->mc[j];
                if (!m && p->nmc == MAXMICRO) {
                    continue;
                } else if (!m) {
                    m = &p->mc[p->nmc++];
                    memset(m, 0, sizeof *m);
                    snprintf(m->label, sizeof m->label, "%s", label);
                }
                int seen = 0; /* the same point again (another variant label): first wins */
                for (size_t t = 0; t < m->k; t++)
                    seen |= m->n[t] == atof(pt->f[2]);
                if (seen)
                    continue;
                if (m->k < MAXPTS) {
                    m->n[m->k] = atof(pt->f[2]);
                    m->x[m->k++] = stats_median(pt->v, pt->n);
                }
            }
            compare_sets_free(&ss);
        }
    for (size_t j = 0; j < p->nmc; j++) { /* sort by tasks (insertion sort, k is small) */
        struct micro_curve *m = &p->mc[j];
        for (size_t a = 1; a < m->k; a++)
            for (size_t b = a; b > 0 && m->n[b - 1] > m->n[b]; b--) {
                double t = m->n[b], u = m->x[b];
                m->n[b] = m->n[b - 1], m->x[b] = m->x[b - 1];
                m->n[b - 1] = t, m->x[b - 1] = u;
            }
    }
}

/* ---- files ---- */

static int put_file(const char *dir, const char *name, const struct sbuf *b)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int rc = write_file_atomic(path, b->s ? b->s : "", b->len);
    if (rc < 0)
        warnx_("cannot write %s: %s", path, strerror(-rc));
    return rc;
}

static void gp_str(struct sbuf *b, const char *s)
{
    sbuf_add(b, "\"", 1);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\' || *s == '@')
            sbuf_add(b, "\\", 1);
        sbuf_add(b, s, 1);
    }
    sbuf_add(b, "\"", 1);
}

static void gp_array(struct sbuf *b, const char *name, char **v, size_t n)
{
    sbuf_printf(b, "array %s[%zu] = [", name, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            sbuf_add(b, ", ", 2);
        gp_str(b, v[i]);
    }
    if (!n)
        gp_str(b, "");
    sbuf_add(b, "]\n", 2);
}

static int write_curve_data(const struct plot *p)
{
    for (size_t i = 0; i < p->nc; i++) {
        const struct curve *c = &p->c[i];
        struct sbuf b = {0};
        sbuf_printf(&b,
                    "# %s\n# 1 threads, 2 median tps, 3 min, 4 max, 5 mean, 6 ci95_lo, "
                    "7 ci95_hi, 8 speedup, 9 efficiency, 10 p50 ms, 11 p95 ms, 12 p99 ms, "
                    "13 ideal linear tps, 14 repeats\n",
                    c->label);
        for (size_t t = 0; t < c->k; t++)
            sbuf_printf(&b, "%g %.3f %.3f %.3f %.3f %.3f %.3f %.4f %.4f %.4f %.4f %.4f %.3f %zu\n",
                        c->n[t], c->x[t], c->tp[t].min, c->tp[t].max, c->tp[t].mean, c->tp[t].ci_lo,
                        c->tp[t].ci_hi, stats_speedup(c->n, c->x, t),
                        stats_efficiency(c->n, c->x, t), c->p50[t], c->p95[t], c->p99[t],
                        c->n[t] * c->x[0] / c->n[0], c->tp[t].n);
        char name[64];
        snprintf(name, sizeof name, "curve%02zu.dat", i + 1);
        int rc = put_file(p->out, name, &b);
        sbuf_free(&b);
        if (rc < 0)
            return -1;
        if (!c->fit_ok)
            continue;
        sbuf_printf(&b, "# USL fit of %s: lambda %g sigma %g kappa %g R2 %g\n", c->label,
                    c->usl.lambda, c->usl.sigma, c->usl.kappa, c->usl.r2);
        double lo = c->n[0], hi = c->n[c->k - 1];
        for (int s = 0; s <= 120; s++) {
            double n = lo * pow(hi / lo, s / 120.0);
            sbuf_printf(&b, "%.4f %.3f\n", n, stats_usl_eval(&c->usl, n));
        }
        snprintf(name, sizeof name, "curve%02zu-usl.dat", i + 1);
        rc = put_file(p->out, name, &b);
        sbuf_free(&b);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* x axis over a set of counts: tics at the counts, log2 when they span >= 8x. */
static void gp_xaxis(struct sbuf *b, const double *v, size_t n)
{
    double lo = INFINITY, hi = 0;
    struct sbuf xt = {0};
    for (size_t i = 0; i < n; i++) {
        int seen = 0;
        for (size_t j = 0; j < i; j++)
            seen |= v[j] == v[i];
        if (!seen)
            sbuf_printf(&xt, "%s%g", xt.len ? " " : "", v[i]);
        lo = fmin(lo, v[i]);
        hi = fmax(hi, v[i]);
    }
    if (n == 0)
        lo = 1, hi = 2;
    int logx = lo > 0 && hi / lo >= 8;
    if (logx)
        sbuf_printf(b, "logx = 1\nxmin = %g\nxmax = %g\n", lo / 1.25, hi * 1.25);
    else
        sbuf_printf(b, "logx = 0\nxmin = %g\nxmax = %g\n", lo - (hi - lo) * 0.06 - 0.3,
                    hi + (hi - lo) * 0.06 + 0.3);
    sbuf_printf(b, "xt = \"%s\"\n", xt.s ? xt.s : "");
    sbuf_free(&xt);
}

static int write_wrapper(const struct plot *p, const char *graph, const char *title,
                         const struct sbuf *vars)
{
    struct sbuf b = {0};
    sbuf_printf(&b,
                "# %s.gp - generated by dbscale plot; the drawing is graphs/%s.gp.\n"
                "# Re-run by hand in this directory:\n"
                "#   gnuplot %s.gp                  (PNG)\n"
                "#   gnuplot -e 'fmt=\"svg\"' %s.gp   (SVG)\n"
                "name = \"%s\"\n",
                graph, graph, graph, graph, graph);
    sbuf_add(&b, "title_main = ", 13);
    gp_str(&b, title);
    sbuf_add(&b, "\nsubtitle = ", 12);
    gp_str(&b, p->subtitle);
    sbuf_add(&b, "\n", 1);
    sbuf_add(&b, vars->s, vars->len);
    sbuf_printf(&b, "load \"graphs/common.gp\"\nload \"graphs/%s.gp\"\n", graph);
    char name[64];
    snprintf(name, sizeof name, "%s.gp", graph);
    int rc = put_file(p->out, name, &b);
    sbuf_free(&b);
    return rc;
}

/* The curves' data files and labels as gnuplot arrays. */
static void gp_curves(struct sbuf *b, const struct plot *p, int with_fit)
{
    char **file = xcalloc(p->nc + 1, sizeof *file), **label = xcalloc(p->nc + 1, sizeof *label);
    char **fit = xcalloc(p->nc + 1, sizeof *fit);
    size_t nfit = 0;
    struct sbuf lt = {0};
    for (size_t i = 0; i < p->nc; i++) {
        const struct curve *c = &p->c[i];
        file[i] = xmalloc(48);
        snprintf(file[i], 48, "curve%02zu.dat", i + 1);
        label[i] = xmalloc(512);
        if (with_fit && c->fit_ok)
            snprintf(label[i], 512, "%s; USL σ=%.3f κ=%.4f R²=%.3f", c->label, c->usl.sigma,
                     c->usl.kappa, c->usl.r2);
        else
            snprintf(label[i], 512, "%s", c->label);
        if (c->fit_ok) {
            fit[nfit] = xmalloc(48);
            snprintf(fit[nfit++], 48, "curve%02zu-usl.dat", i + 1);
            sbuf_printf(&lt, "%s%zu", lt.len ? ", " : "", i + 1);
        }
    }
    sbuf_printf(b, "n = %zu\n", p->nc);
    gp_array(b, "file", file, p->nc);
    gp_array(b, "label", label, p->nc);
    sbuf_printf(b, "nfit = %zu\n", nfit);
    gp_array(b, "fitfile", fit, nfit);
    sbuf_printf(b, "array fitlt[%zu] = [%s]\n", nfit ? nfit : 1, lt.s ? lt.s : "1");
    for (size_t i = 0; i < p->nc; i++)
        free(file[i]), free(label[i]), free(fit[i]);
    free(file), free(label), free(fit);
    sbuf_free(&lt);
}

static void all_threads(const struct plot *p, double **v, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < p->nc; i++)
        *n += p->c[i].k;
    *v = xmalloc((*n + MAXPTS * MAXMICRO + 1) * sizeof **v);
    size_t k = 0;
    for (size_t i = 0; i < p->nc; i++)
        for (size_t t = 0; t < p->c[i].k; t++)
            (*v)[k++] = p->c[i].n[t];
}

static char *workloads(const struct plot *p)
{
    static char w[160];
    w[0] = '\0';
    for (size_t i = 0; i < p->nc; i++) {
        if (!p->c[i].workload[0] || strstr(w, p->c[i].workload))
            continue;
        size_t l = strlen(w);
        snprintf(w + l, sizeof w - l, "%s%s", l ? ", " : "", p->c[i].workload);
    }
    return w;
}

/* Throughput vs CPU count: one series per (dir, engine, workload, threads),
 * x the cpus of its curves. Colour = thread count, dash = results group; the
 * ideal line only for each group's best series, to keep the picture legible.
 * Returns the series count (0: fewer than two CPU counts anywhere) or -1. */
struct cpu_series {
    const struct curve *c; /* first curve of the group */
    double threads, cx[MAXPTS];
    const struct stats_summary *cs[MAXPTS];
    size_t m;
    int group;
};

static int same_group(const struct curve *a, const struct curve *b)
{
    return a->dir == b->dir && !strcmp(a->engine, b->engine) && !strcmp(a->workload, b->workload);
}

static int write_cpus(const struct plot *p, struct sbuf *vars, double *ymax)
{
    struct cpu_series *se = xcalloc(p->nc * MAXPTS + 1, sizeof *se);
    size_t ns = 0;
    int ngroups = 0;
    double ths[MAXPTS];
    size_t nths = 0;
    for (size_t i = 0; i < p->nc; i++) {
        const struct curve *c = &p->c[i];
        int newgroup = 1;
        for (size_t j = 0; j < i; j++)
            newgroup &= !same_group(&p->c[j], c);
        if (!newgroup)
            continue;
        ngroups++;
        for (size_t j = i; j < p->nc; j++) {
            const struct curve *o = &p->c[j];
            if (!same_group(o, c))
                continue;
            for (size_t u = 0; u < o->k; u++) {
                struct cpu_series *s = NULL;
                for (size_t q = 0; q < ns && !s; q++)
                    if (se[q].c == c && se[q].threads == o->n[u])
                        s = &se[q];
                if (!s) {
                    s = &se[ns++];
                    s->c = c, s->threads = o->n[u], s->group = ngroups;
                }
                int dup = 0;
                for (size_t a = 0; a < s->m; a++)
                    dup |= s->cx[a] == o->cpus;
                if (dup || s->m == MAXPTS)
                    continue;
                for (size_t a = s->m++;; a--) { /* insert sorted by cpus */
                    if (a == 0 || s->cx[a - 1] < o->cpus) {
                        s->cx[a] = o->cpus, s->cs[a] = &o->tp[u];
                        break;
                    }
                    s->cx[a] = s->cx[a - 1], s->cs[a] = s->cs[a - 1];
                }
            }
        }
    }
    /* Keep series spanning >= 2 CPU counts; note the thread counts for colours. */
    size_t keep = 0;
    for (size_t q = 0; q < ns; q++) {
        if (se[q].m < 2)
            continue;
        se[keep++] = se[q];
        int seen = 0;
        for (size_t a = 0; a < nths; a++)
            seen |= ths[a] == se[q].threads;
        if (!seen && nths < MAXPTS)
            ths[nths++] = se[q].threads;
    }
    ns = keep;
    qsort(ths, nths, sizeof *ths, cmp_double);
    struct sbuf files = {0}, labels = {0}, lts = {0}, dts = {0}, ideal = {0};
    double xs[MAXPTS];
    size_t nx = 0;
    *ymax = 0;
    int rc = (int)ns;
    for (size_t q = 0; q < ns && rc >= 0; q++) {
        struct cpu_series *s = &se[q];
        const struct curve *c = s->c;
        /* best = highest median at the most CPUs within its group */
        int best = 1;
        for (size_t r = 0; r < ns; r++)
            if (se[r].group == s->group && se[r].cs[se[r].m - 1]->median > s->cs[s->m - 1]->median)
                best = 0;
        struct sbuf d = {0};
        sbuf_printf(&d,
                    "# %s %s %s, %g client threads\n"
                    "# 1 cpus, 2 median tps, 3 min, 4 max, 5 ideal linear tps\n",
                    p->dirs[c->dir].name, c->engine, c->workload, s->threads);
        for (size_t a = 0; a < s->m; a++) {
            sbuf_printf(&d, "%g %.3f %.3f %.3f %.3f\n", s->cx[a], s->cs[a]->median, s->cs[a]->min,
                        s->cs[a]->max, s->cx[a] * s->cs[0]->median / s->cx[0]);
            *ymax = fmax(*ymax, s->cs[a]->max);
            int seen = 0;
            for (size_t r = 0; r < nx; r++)
                seen |= xs[r] == s->cx[a];
            if (!seen && nx < MAXPTS)
                xs[nx++] = s->cx[a];
        }
        char name[64];
        snprintf(name, sizeof name, "cpus%02zu.dat", q + 1);
        if (put_file(p->out, name, &d) < 0)
            rc = -1;
        sbuf_free(&d);
        size_t colour = 0;
        while (colour < nths && ths[colour] != s->threads)
            colour++;
        const char *sep = q ? ", " : "";
        sbuf_printf(&files, "%s\"%s\"", sep, name);
        sbuf_printf(&lts, "%s%zu", sep, colour + 1);
        sbuf_printf(&dts, "%s%d", sep, s->group);
        sbuf_printf(&ideal, "%s%d", sep, best);
        char label[256];
        snprintf(label, sizeof label, "%s%s%s%s, %g thread%s%s", c->engine,
                 p->dirs[c->dir].server[0] ? " (" : "", p->dirs[c->dir].server,
                 p->dirs[c->dir].server[0] ? ")" : "", s->threads, s->threads == 1 ? "" : "s",
                 best ? " (with ideal)" : "");
        sbuf_add(&labels, sep, strlen(sep));
        gp_str(&labels, label);
    }
    if (rc > 0) {
        sbuf_printf(vars,
                    "n = %zu\narray file[%zu] = [%s]\narray label[%zu] = [%s]\n"
                    "array ltv[%zu] = [%s]\narray dtv[%zu] = [%s]\narray ideal[%zu] = [%s]\n",
                    ns, ns, files.s, ns, labels.s, ns, lts.s, ns, dts.s, ns, ideal.s);
        gp_xaxis(vars, xs, nx);
    }
    sbuf_free(&files), sbuf_free(&labels), sbuf_free(&lts), sbuf_free(&dts), sbuf_free(&ideal);
    free(se);
    return rc;
}

static int write_micro_data(const struct plot *p, struct sbuf *vars, double *ymax)
{
    struct sbuf files = {0}, labels = {0};
    for (size_t j = 0; j < p->nmc; j++) {
        const struct micro_curve *m = &p->mc[j];
        struct sbuf d = {0};
        sbuf_printf(&d, "# %s\n# 1 tasks, 2 normalised (x first point), 3 ops/s (median)\n",
                    m->label);
        for (size_t t = 0; t < m->k; t++) {
            double s = stats_speedup(m->n, m->x, t);
            *ymax = fmax(*ymax, s);
            sbuf_printf(&d, "%g %.4f %.1f\n", m->n[t], s, m->x[t]);
        }
        char name[64];
        snprintf(name, sizeof name, "micro%02zu.dat", j + 1);
        int rc = put_file(p->out, name, &d);
        sbuf_free(&d);
        if (rc < 0)
            return -1;
        sbuf_printf(&files, "%s\"%s\"", j ? ", " : "", name);
        sbuf_add(&labels, j ? ", " : "", j ? 2 : 0);
        gp_str(&labels, m->label);
    }
    sbuf_printf(vars, "m = %zu\narray mfile[%zu] = [%s]\narray mlabel[%zu] = [%s]\n", p->nmc,
                p->nmc, files.s, p->nmc, labels.s);
    sbuf_free(&files);
    sbuf_free(&labels);
    return 0;
}

/* ---- gnuplot ---- */

int plot_gnuplot(const char *dir, const char *script, const char *format, char *err, size_t errlen)
{
    int fd[2];
    if (pipe(fd) < 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return -1;
    }
    char fmt[64];
    snprintf(fmt, sizeof fmt, "fmt=\"%s\"", format);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "fork: %s", strerror(errno));
        close(fd[0]), close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(fd[1], 2);
        close(fd[0]);
        if (chdir(dir) < 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", "-e", fmt, script, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    struct sbuf msg = {0};
    char buf[4096];
    ssize_t n;
    while ((n = read(fd[0], buf, sizeof buf)) != 0) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        if (msg.len < 16384)
            sbuf_add(&msg, buf, (size_t)n);
    }
    close(fd[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    int rc = 0;
    if (code == 127)
        snprintf(err, errlen, "gnuplot not found (install it: apt-get install gnuplot-nox)");
    else if (code == 126)
        snprintf(err, errlen, "cannot enter %s", dir);
    else if (code != 0 || (msg.s && strcasestr(msg.s, "error")))
        snprintf(err, errlen, "gnuplot failed on %s/%s (exit %d):\n%s", dir, script, code,
                 msg.s ? msg.s : "");
    else if (msg.s)
        warnx_("gnuplot on %s/%s said:\n%s", dir, script, msg.s);
    if (code != 0 || (msg.s && strcasestr(msg.s, "error")))
        rc = -1;
    sbuf_free(&msg);
    return rc;
}

static int copy_script(const char *out, const char *name)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/graphs/%s", datadir(), name);
    FILE *f = fopen(src, "r");
    if (!f) {
        warnx_("cannot read %s: %s (set DBSCALE_DATADIR to the directory holding graphs/)", src,
               strerror(errno));
        return -1;
    }
    struct sbuf b = {0};
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sbuf_add(&b, buf, n);
    fclose(f);
    char dst[64];
    snprintf(dst, sizeof dst, "graphs/%s", name);
    int rc = put_file(out, dst, &b);
    sbuf_free(&b);
    return rc;
}

/* ---- summary ---- */

static void fmt_n(char *b, size_t len, double v)
{
    if (isinf(v))
        snprintf(b, len, "inf");
    else
        snprintf(b, len, "%.1f", v);
}

static void summary(const struct plot *p, struct sbuf *txt, struct sbuf *md, struct sbuf *csv)
{
    int lw = 5;
    for (size_t i = 0; i < p->nc; i++)
        lw = (int)strlen(p->c[i].label) > lw ? (int)strlen(p->c[i].label) : lw;
    lw = lw > 100 ? 100 : lw;
    sbuf_printf(txt, "%-4s %-*s %7s %8s %9s %6s %7s %13s %7s\n", "", lw, "curve", "sigma", "kappa",
                "lambda", "R2", "N*", "peak", "knee");
    sbuf_printf(md, "## Scalability (Universal Scalability Law fit)\n\n"
                    "| | curve | σ | κ | λ (tps/thread) | R² | N* | peak | knee |\n"
                    "|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < p->nc; i++) {
        const struct curve *c = &p->c[i];
        char sg[32] = "-", kp[32] = "-", lm[32] = "-", r2[32] = "-", ns[32] = "-", pk[64],
             kn[32] = "none";
        if (c->fit_ok) {
            snprintf(sg, sizeof sg, "%.4f", c->usl.sigma);
            snprintf(kp, sizeof kp, "%.5f", c->usl.kappa);
            snprintf(lm, sizeof lm, "%.1f", c->usl.lambda);
            snprintf(r2, sizeof r2, "%.3f", c->usl.r2);
            fmt_n(ns, sizeof ns, c->usl.nstar);
        }
        snprintf(pk, sizeof pk, "%.0f@%g", c->x[c->peak], c->n[c->peak]);
        if (c->knee < c->k)
            snprintf(kn, sizeof kn, "%g", c->n[c->knee]);
        sbuf_printf(txt, "c%-3zu %-*.*s %7s %8s %9s %6s %7s %13s %7s\n", i + 1, lw, lw, c->label,
                    sg, kp, lm, r2, ns, pk, kn);
        sbuf_printf(md, "| c%zu | %s | %s | %s | %s | %s | %s | %.0f tps @ %g | %s |\n", i + 1,
                    c->label, sg, kp, lm, r2, ns, c->x[c->peak], c->n[c->peak], kn);
    }
    sbuf_printf(txt, "  N* = sqrt((1 - sigma) / kappa), the predicted peak; peak = tps@threads "
                     "measured; knee = first thread count whose gain per added thread is under "
                     "10%% of linear\n\n");
    sbuf_printf(md, "\nN* = sqrt((1 − σ) / κ) is the predicted peak; peak is measured (tps @ "
                    "threads); the knee is the first thread count whose gain per added thread "
                    "falls under 10%% of linear.\n\n");
    sbuf_printf(txt, "%-4s %7s %10s %23s %8s %6s %3s\n", "", "threads", "median", "95% CI",
                "speedup", "eff", "n");
    sbuf_printf(md, "## Points\n\n| | threads | median tps | 95%% CI | speedup | efficiency | n "
                    "|\n|---|---:|---:|---:|---:|---:|---:|\n");
    sbuf_printf(csv, "curve,results,engine,workload,variant,cpus,threads,repeats,median_tps,"
                     "mean_tps,sd_tps,ci95_lo,ci95_hi,min_tps,max_tps,speedup,efficiency,"
                     "p50_ms,p95_ms,p99_ms,usl_sigma,usl_kappa,usl_lambda,usl_r2,usl_nstar,"
                     "peak_threads,knee_threads\n");
    for (size_t i = 0; i < p->nc; i++) {
        const struct curve *c = &p->c[i];
        for (size_t t = 0; t < c->k; t++) {
            const struct stats_summary *s = &c->tp[t];
            char ci[64];
            /* Throughput is never negative: a wide interval is shown cut at 0. */
            snprintf(ci, sizeof ci, "%.1f..%.1f", fmax(0, s->ci_lo), s->ci_hi);
            double sp = stats_speedup(c->n, c->x, t), ef = stats_efficiency(c->n, c->x, t);
            sbuf_printf(txt, "c%-3zu %7g %10.1f %23s %8.2f %5.0f%% %3zu\n", i + 1, c->n[t],
                        s->median, ci, sp, ef * 100, s->n);
            sbuf_printf(md, "| c%zu | %g | %.1f | %s | %.2f | %.0f%% | %zu |\n", i + 1, c->n[t],
                        s->median, ci, sp, ef * 100, s->n);
            sbuf_printf(csv,
                        "c%zu,%s,%s,%s,%s,%d,%g,%zu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,"
                        "%.4f,%.4f,%.4f,%.4f,",
                        i + 1, p->dirs[c->dir].name, c->engine, c->workload, c->variant, c->cpus,
                        c->n[t], s->n, s->median, s->mean, s->sd, s->ci_lo, s->ci_hi, s->min,
                        s->max, sp, ef, c->p50[t], c->p95[t], c->p99[t]);
            if (c->fit_ok)
                sbuf_printf(csv, "%.6g,%.6g,%.6g,%.6g,%.6g,", c->usl.sigma, c->usl.kappa,
                            c->usl.lambda, c->usl.r2, c->usl.nstar);
            else
                sbuf_printf(csv, ",,,,,");
            sbuf_printf(csv, "%g,", c->n[c->peak]);
            if (c->knee < c->k)
                sbuf_printf(csv, "%g", c->n[c->knee]);
            sbuf_add(csv, "\n", 1);
        }
    }
}

/* ---- the verb ---- */

static const struct optdef plot_opts[] = {
    {"out", OPT_STR, NULL, "directory for graphs, data and scripts (default: FIRST_DIR/plots)"},
    {"format", OPT_STR, "png", "image formats, comma separated: png, svg"},
};

struct graph {
    const char *name, *title;
    struct sbuf vars;
};

static int make_graphs(struct plot *p, const char *formats)
{
    struct graph g[8];
    size_t ng = 0;
    double *th;
    size_t nth;
    all_threads(p, &th, &nth);
    double ytp = 0, ysp = 0, yef = 100, ylat = 0;
    int have_lat = 0;
    for (size_t i = 0; i < p->nc; i++)
        for (size_t t = 0; t < p->c[i].k; t++) {
            const struct curve *c = &p->c[i];
            ytp = fmax(ytp, c->tp[t].max);
            ysp = fmax(ysp, stats_speedup(c->n, c->x, t));
            yef = fmax(yef, 100 * stats_efficiency(c->n, c->x, t));
            ylat = fmax(ylat, c->x[t]);
            have_lat |= c->p50[t] > 0 && c->p95[t] > 0 && c->p99[t] > 0;
        }
    char title[256];
    const char *wl = workloads(p);
    const char *sep = wl[0] ? " - " : "";

#define NEW(n_, fmt_, ...)                                                                         \
    do {                                                                                           \
        snprintf(title, sizeof title, fmt_, __VA_ARGS__);                                          \
        g[ng].name = n_;                                                                           \
        g[ng].title = xstrdup(title);                                                              \
        memset(&g[ng].vars, 0, sizeof g[ng].vars);                                                 \
    } while (0)

    NEW("throughput", "Throughput vs client threads%s%s", sep, wl);
    gp_curves(&g[ng].vars, p, 1);
    gp_xaxis(&g[ng].vars, th, nth);
    sbuf_printf(&g[ng++].vars, "ymax = %g\n", ytp * 1.1);

    NEW("speedup", "Speedup vs client threads%s%s", sep, wl);
    gp_curves(&g[ng].vars, p, 0);
    gp_xaxis(&g[ng].vars, th, nth);
    sbuf_printf(&g[ng++].vars, "ymax = %g\n", fmax(1.2, ysp * 1.15));

    NEW("efficiency", "Parallel efficiency vs client threads%s%s", sep, wl);
    gp_curves(&g[ng].vars, p, 0);
    gp_xaxis(&g[ng].vars, th, nth);
    sbuf_printf(&g[ng++].vars, "ymax = %g\n", yef * 1.1);

    double ycpu;
    NEW("cpus", "Throughput vs server CPUs, per client thread count%s%s", sep, wl);
    int ns = write_cpus(p, &g[ng].vars, &ycpu);
    if (ns < 0)
        return -1;
    if (ns > 0)
        sbuf_printf(&g[ng++].vars, "ymax = %g\n", ycpu * 1.1);
    else {
        printf("(no throughput-vs-CPUs graph: the results hold a single CPU count)\n");
        sbuf_free(&g[ng].vars);
        free((char *)g[ng].title);
    }

    if (have_lat) {
        NEW("latency", "Latency percentiles vs client threads%s%s", sep, wl);
        gp_curves(&g[ng].vars, p, 0);
        gp_xaxis(&g[ng++].vars, th, nth);

        NEW("tput-latency", "Throughput vs p95 latency (labels: client threads)%s%s", sep, wl);
        gp_curves(&g[ng].vars, p, 0);
        sbuf_printf(&g[ng++].vars, "ymax = %g\n", ylat * 1.15);
    } else {
        printf("(no latency graphs: the results hold no latency percentiles)\n");
    }

    if (p->nmc > 0) {
        double ymc = ysp;
        NEW("baseline", "Normalised scaling: database vs kernel baseline%s%s", sep, wl);
        gp_curves(&g[ng].vars, p, 0);
        if (write_micro_data(p, &g[ng].vars, &ymc) < 0)
            return -1;
        for (size_t j = 0; j < p->nmc; j++)
            for (size_t t = 0; t < p->mc[j].k; t++)
                th[nth++] = p->mc[j].n[t];
        gp_xaxis(&g[ng].vars, th, nth);
        sbuf_printf(&g[ng++].vars, "ymax = %g\n", fmax(1.2, ymc * 1.15));
    }
#undef NEW
    free(th);

    int rc = copy_script(p->out, "common.gp");
    for (size_t i = 0; i < ng && rc == 0; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s.gp", g[i].name);
        rc = copy_script(p->out, name);
        if (rc == 0)
            rc = write_wrapper(p, g[i].name, g[i].title, &g[i].vars);
    }
    char fmts[64], err[20000];
    snprintf(fmts, sizeof fmts, "%s", formats);
    for (size_t i = 0; i < ng && rc == 0; i++) {
        char *save = NULL;
        snprintf(fmts, sizeof fmts, "%s", formats);
        for (char *f = strtok_r(fmts, ",", &save); f && rc == 0; f = strtok_r(NULL, ",", &save)) {
            char script[64];
            snprintf(script, sizeof script, "%s.gp", g[i].name);
            if (plot_gnuplot(p->out, script, f, err, sizeof err) < 0) {
                warnx_("%s", err);
                rc = -1;
                break;
            }
            char img[1024];
            struct stat st;
            snprintf(img, sizeof img, "%s/%s.%s", p->out, g[i].name, f);
            if (stat(img, &st) < 0 || st.st_size == 0) {
                warnx_("gnuplot made no %s", img);
                rc = -1;
                break;
            }
            printf("graph: %s\n", img);
        }
    }
    for (size_t i = 0; i < ng; i++) {
        sbuf_free(&g[i].vars);
        free((char *)g[i].title);
    }
    return rc;
}

static int check_formats(const char *formats)
{
    char buf[64], *save = NULL;
    snprintf(buf, sizeof buf, "%s", formats);
    int n = 0;
    for (char *f = strtok_r(buf, ",", &save); f; f = strtok_r(NULL, ",", &save), n++)
        if (strcmp(f, "png") && strcmp(f, "svg"))
            return -1;
    return n > 0 ? 0 : -1;
}

int plot_main(int argc, char **argv)
{
    struct opts o;
    opts_init(&o, plot_opts, sizeof plot_opts / sizeof plot_opts[0]);
    char *pos[32], err[1024];
    int npos, rc = opts_parse_argv(&o, argc, argv, 1, pos, 32, &npos, err, sizeof err);
    if (rc == 1 || (rc == 0 && npos == 0)) {
        fputs("usage: dbscale plot RESULTS_DIR... [--out DIR] [--format png,svg]\n",
              rc == 1 ? stdout : stderr);
        opts_help(&o, rc == 1 ? stdout : stderr);
        opts_free(&o);
        return rc == 1 ? 0 : EXIT_USAGE;
    }
    if (rc < 0) {
        opts_free(&o);
        die(EXIT_USAGE, "%s", err);
    }
    const char *formats = opts_str(&o, "format");
    if (!formats)
        formats = "png";
    if (check_formats(formats) < 0) {
        warnx_("--format: '%s' is not a list of png, svg", formats);
        opts_free(&o);
        return EXIT_USAGE;
    }
    struct plot p = {0};
    p.dirs = xcalloc((size_t)npos, sizeof *p.dirs);
    rc = 0;
    for (int i = 0; i < npos && rc == 0; i++) {
        struct pdir *d = &p.dirs[p.ndirs++];
        snprintf(d->path, sizeof d->path, "%s", pos[i]);
        struct stat st;
        if (stat(pos[i], &st) == 0 && !S_ISDIR(st.st_mode)) { /* DIR/results.csv given */
            char *s = strrchr(d->path, '/');
            if (s)
                *s = '\0';
            else
                snprintf(d->path, sizeof d->path, ".");
        }
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s", d->path);
        size_t l = strlen(tmp);
        while (l > 1 && tmp[l - 1] == '/')
            tmp[--l] = '\0';
        const char *base = strrchr(tmp, '/');
        snprintf(d->name, sizeof d->name, "%.63s", base ? base + 1 : tmp);
        if (results_read(pos[i], &d->rs, err, sizeof err) < 0) {
            warnx_("%s", err);
            rc = EXIT_USAGE;
        } else if (d->rs.n == 0) {
            warnx_("%s: no result rows", pos[i]);
            rc = EXIT_USAGE;
        }
        read_meta(d);
    }
    char outbuf[600];
    const char *out = opts_str(&o, "out");
    if (!out) {
        snprintf(outbuf, sizeof outbuf, "%s/plots", p.dirs[0].path);
        out = outbuf;
    }
    p.out = out;
    char gdir[700];
    snprintf(gdir, sizeof gdir, "%s/graphs", out);
    if (rc == 0 && mkdir_p(gdir, 0755) < 0) {
        warnx_("cannot create %s: %s", gdir, strerror(errno));
        rc = EXIT_RUNTIME;
    }
    if (rc == 0) {
        for (size_t d = 0; d < p.ndirs; d++)
            for (size_t i = 0; i < p.dirs[d].rs.n; i++)
                find_curve(&p, (int)d, &p.dirs[d].rs.rows[i]);
        for (size_t i = 0; i < p.nc; i++)
            build_curve(&p, &p.c[i]);
        label_curves(&p);
        load_micro(&p);
        struct sbuf txt = {0}, md = {0}, csv = {0};
        sbuf_printf(&md, "# dbscale plot summary\n\n%s\n\n", p.subtitle);
        summary(&p, &txt, &md, &csv);
        fputs(txt.s, stdout);
        if (write_curve_data(&p) < 0 || put_file(out, "summary.md", &md) < 0 ||
            put_file(out, "summary.csv", &csv) < 0)
            rc = EXIT_RUNTIME;
        else
            printf("summary: %s/summary.md, %s/summary.csv\n", out, out);
        sbuf_free(&txt);
        sbuf_free(&md);
        sbuf_free(&csv);
        if (rc == 0 && make_graphs(&p, formats) < 0)
            rc = EXIT_RUNTIME;
    }
    for (size_t d = 0; d < p.ndirs; d++)
        results_free(&p.dirs[d].rs);
    free(p.dirs);
    free(p.c);
    opts_free(&o);
    return rc;
}
