/*
 * plot_gp.c - the gnuplot plumbing of `dbscale plot`: the curves that plot.c
 * computed become data files, a small generated script per graph, and the
 * pictures gnuplot draws from them.
 *
 * The one idea: gnuplot only draws. Each graph is graphs/NAME.gp (the style,
 * copied into the out directory) loaded by a generated NAME.gp that does no
 * more than name the data files, labels and axis ranges, so a user can edit
 * a style and re-run `gnuplot NAME.gp` by hand and get the same picture.
 *
 * Never decide here what a curve is or compute a statistic of its own (the
 * numbers come from struct plot_curve), and never silently make a broken
 * picture: gnuplot's stderr is captured, an error in it fails the graph with
 * its message, and an image gnuplot did not make is an error too.
 */
#include "results/plot_gp.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stats/stats.h"

/* ---- files ---- */

void plot_fail(const struct plot *p, const char *fmt, ...)
{
    if (p->log->err[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->log->err, sizeof p->log->err, fmt, ap);
    va_end(ap);
}

int plot_gp_write(const struct plot *p, const char *name, const struct sbuf *b)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", p->out, name);
    int rc = write_file_atomic(path, b->s ? b->s : "", b->len);
    if (rc < 0)
        plot_fail(p, "cannot write %s: %s", path, strerror(-rc));
    else if (p->written)
        plot_files_add(p->written, name);
    return rc;
}

/* Data (labels, names, host fields) reaches a script only as a gnuplot
 * single-quoted string: gnuplot 5.4 expands `cmd` and @macro inside double
 * quotes but nothing inside single quotes, where the one escape is '' for a
 * quote. A control character (a newline would end the string and start a
 * command) becomes a space. gnuplot's scanner reads a string that opens
 * with '' as an empty one followed by junk, so text starting with a quote
 * gets a space before it. */
void plot_gp_str(struct sbuf *b, const char *s)
{
    sbuf_add(b, *s == '\'' ? "' " : "'", *s == '\'' ? 2 : 1);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '\'')
            sbuf_add(b, "''", 2);
        else if (ch < 0x20 || ch == 0x7f)
            sbuf_add(b, " ", 1);
        else
            sbuf_add(b, s, 1);
    }
    sbuf_add(b, "'", 1);
}

static void gp_array(struct sbuf *b, const char *name, char **v, size_t n)
{
    sbuf_printf(b, "array %s[%zu] = [", name, n ? n : 1);
    for (size_t i = 0; i < n; i++) {
        if (i)
            sbuf_add(b, ", ", 2);
        plot_gp_str(b, v[i]);
    }
    if (!n)
        plot_gp_str(b, "");
    sbuf_add(b, "]\n", 2);
}

/* Which points of the throughput-vs-latency graph carry their thread count:
 * greedily, in curve order, a label only where no label already drawn sits
 * within a label's size (as fractions of the axes), so labels of curves that
 * run close together are not printed over each other. lab[i * PLOT_MAXPTS + t]. */
static int *tl_labels(const struct plot *p)
{
    int *lab = xcalloc(p->nc * PLOT_MAXPTS + 1, sizeof *lab);
    double xm = 0, ym = 0;
    for (size_t i = 0; i < p->nc; i++)
        for (size_t t = 0; t < p->c[i].k; t++) {
            xm = fmax(xm, p->c[i].p95[t]);
            ym = fmax(ym, p->c[i].x[t]);
        }
    xm = xm > 0 ? xm : 1, ym = ym > 0 ? ym : 1;
    for (size_t i = 0; i < p->nc; i++)
        for (size_t t = 0; t < p->c[i].k; t++) {
            double x = p->c[i].p95[t] / xm, y = p->c[i].x[t] / ym;
            int free_ = 1;
            for (size_t j = 0; j <= i && free_; j++)
                for (size_t u = 0; u < p->c[j].k && free_; u++)
                    if (lab[j * PLOT_MAXPTS + u] && fabs(p->c[j].p95[u] / xm - x) < 0.04 &&
                        fabs(p->c[j].x[u] / ym - y) < 0.04)
                        free_ = 0;
            lab[i * PLOT_MAXPTS + t] = free_;
        }
    return lab;
}

int plot_gp_data(const struct plot *p)
{
    int *lab = tl_labels(p);
    for (size_t i = 0; i < p->nc; i++) {
        const struct plot_curve *c = &p->c[i];
        struct sbuf b = {0};
        sbuf_printf(&b,
                    "# %s\n# 1 threads, 2 median tps, 3 min, 4 max, 5 mean, 6 ci95_lo, "
                    "7 ci95_hi, 8 speedup, 9 efficiency (vs 13), 10 p50 ms, 11 p95 ms, "
                    "12 p99 ms, 13 ideal tps (linear up to the server's CPUs, flat after), "
                    "14 repeats, 15 1 = thread count labelled on tput-latency\n",
                    c->label);
        for (size_t t = 0; t < c->k; t++)
            sbuf_printf(&b,
                        "%g %.3f %.3f %.3f %.3f %.3f %.3f %.4f %.4f %.4f %.4f %.4f %.3f %zu %d\n",
                        c->n[t], c->x[t], c->tp[t].min, c->tp[t].max, c->tp[t].mean, c->tp[t].ci_lo,
                        c->tp[t].ci_hi, stats_speedup(c->n, c->x, t), c->eff[t], c->p50[t],
                        c->p95[t], c->p99[t], stats_ideal(c->n, c->x, t, c->cpus), c->tp[t].n,
                        lab[i * PLOT_MAXPTS + t]);
        char name[64];
        snprintf(name, sizeof name, "curve%02zu.dat", i + 1);
        int rc = plot_gp_write(p, name, &b);
        sbuf_free(&b);
        if (rc < 0)
            break;
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
        rc = plot_gp_write(p, name, &b);
        sbuf_free(&b);
        if (rc < 0)
            break;
    }
    free(lab);
    return p->log->err[0] ? -1 : 0;
}

/* text as a gnuplot string expression of lines no longer than width
 * (wider ones are clipped at the graph's edges), broken after the last
 * "; " that fits when it is past half the width, else the last ", " or
 * "; ": 'a; b'."\n".'c'. Each part goes
 * through plot_gp_str. */
static void gp_lines(struct sbuf *b, const char *text, size_t width)
{
    size_t n = strlen(text), start = 0, parts = 0;
    while (start < n || parts == 0) {
        size_t end = n;
        if (n - start > width) {
            size_t semi = start, comma = start;
            for (size_t i = start; i + 1 < n && i - start < width; i++) {
                if (text[i] == ';' && text[i + 1] == ' ')
                    semi = i + 1;
                if (text[i] == ',' && text[i + 1] == ' ')
                    comma = i + 1;
            }
            /* a "; " past half the width, else the later of the two */
            end = semi - start >= width / 2 ? semi : semi > comma ? semi : comma;
            if (end == start)
                end = n; /* no place to break: one long line */
        }
        char *part = xmalloc(end - start + 1);
        memcpy(part, text + start, end - start);
        part[end - start] = '\0';
        if (parts++)
            sbuf_add(b, ".\"\\n\".", 6);
        plot_gp_str(b, part);
        free(part);
        start = end;
        while (start < n && text[start] == ' ')
            start++;
    }
}

/* The top of a y range: gnuplot refuses [0:0] ("empty y range"), so a
 * graph of all-zero throughput (a server that did nothing) gets [0:1]. */
static void gp_ymax(struct sbuf *b, double v)
{
    sbuf_printf(b, "ymax = %g\n", isfinite(v) && v > 0 ? v : 1);
}

/* x axis over a set of counts: tics at the counts, log2 when they span >= 8x. */
void plot_gp_xaxis(struct sbuf *b, const double *v, size_t n)
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
    plot_gp_str(&b, title);
    sbuf_add(&b, "\nsubtitle = ", 12);
    gp_lines(&b, p->subtitle, 84);
    sbuf_add(&b, "\nfootnote = ", 12);
    plot_gp_str(&b, p->footnote);
    sbuf_add(&b, "\n", 1);
    sbuf_add(&b, vars->s, vars->len);
    sbuf_printf(&b, "load \"graphs/common.gp\"\nload \"graphs/%s.gp\"\n", graph);
    char name[64];
    snprintf(name, sizeof name, "%s.gp", graph);
    int rc = plot_gp_write(p, name, &b);
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
        const struct plot_curve *c = &p->c[i];
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
    *v = xmalloc((*n + PLOT_MAXPTS * p->nmc + 1) * sizeof **v);
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

static int copy_script(const struct plot *p, const char *name)
{
    char src[1024];
    snprintf(src, sizeof src, "%s/graphs/%s", datadir(), name);
    struct sbuf b = {0};
    int r = sbuf_read_file(&b, src);
    if (r < 0) {
        plot_fail(p, "cannot read %s: %s (set DBSCALE_DATADIR to the directory holding graphs/)",
                  src, strerror(-r));
        sbuf_free(&b);
        return -1;
    }
    char dst[64];
    snprintf(dst, sizeof dst, "graphs/%s", name);
    int rc = plot_gp_write(p, dst, &b);
    sbuf_free(&b);
    return rc;
}

/* The log y axis of the throughput graphs: on when asked (p->log_y 1), off
 * when told (-1), else when the curves' peaks differ by more than 10x, so
 * a 200-tps curve beside a 17k-tps one is not flattened onto the axis.
 * ymin: under the lowest positive point (a log axis has no 0). */
static void gp_logy(struct sbuf *b, const struct plot *p)
{
    double lo = INFINITY, hi = 0, low = INFINITY;
    for (size_t i = 0; i < p->nc; i++) {
        const struct plot_curve *c = &p->c[i];
        double pk = c->x[c->peak];
        if (pk > 0)
            lo = fmin(lo, pk), hi = fmax(hi, pk);
        for (size_t t = 0; t < c->k; t++)
            if (c->tp[t].min > 0)
                low = fmin(low, c->tp[t].min);
    }
    int on = p->log_y > 0 || (p->log_y == 0 && hi > 0 && hi > 10 * lo);
    sbuf_printf(b, "logy = %d\nymin = %g\n", on, isfinite(low) ? low / 1.5 : 1);
}

struct graph {
    const char *name, *title;
    struct sbuf vars;
};

/* The graphs of one plot in drawing order; every title ends in the curves'
 * workloads (" - oltp_read_only") when they name any. */
struct graphs {
    struct graph g[12];
    size_t n;
    const char *wl;
};

/* A new graph at the end of gs, with no variables yet: its variables. */
static struct sbuf *graph_new(struct graphs *gs, const char *name, const char *title)
{
    char t[256];
    snprintf(t, sizeof t, "%s%s%s", title, gs->wl[0] ? " - " : "", gs->wl);
    struct graph *g = &gs->g[gs->n++];
    g->name = name;
    g->title = xstrdup(t);
    memset(&g->vars, 0, sizeof g->vars);
    return &g->vars;
}

static void graph_free(struct graph *g)
{
    sbuf_free(&g->vars);
    free((char *)g->title);
}

/* The last graph left out: its variables found nothing to draw. */
static void graph_drop(struct graphs *gs)
{
    graph_free(&gs->g[--gs->n]);
}

/* What the y axes must hold: the highest error-bar top, speedup, efficiency
 * (at least 100%) and median; and whether any point has latencies. */
struct yranges {
    double tp_max, speedup, eff, tp_med;
    int have_lat;
};

static struct yranges curve_ranges(const struct plot *p)
{
    struct yranges y = {.eff = 100};
    for (size_t i = 0; i < p->nc; i++)
        for (size_t t = 0; t < p->c[i].k; t++) {
            const struct plot_curve *c = &p->c[i];
            y.tp_max = fmax(y.tp_max, c->tp[t].max);
            y.speedup = fmax(y.speedup, stats_speedup(c->n, c->x, t));
            y.eff = fmax(y.eff, 100 * c->eff[t]);
            y.tp_med = fmax(y.tp_med, c->x[t]);
            y.have_lat |= c->p50[t] > 0 && c->p95[t] > 0 && c->p99[t] > 0;
        }
    return y;
}

/* throughput, speedup and efficiency: the curves against client threads. */
static void scaling_graphs(const struct plot *p, struct graphs *gs, const double *th, size_t nth,
                           const struct yranges *y)
{
    struct sbuf *v = graph_new(gs, "throughput", "Throughput vs client threads");
    gp_curves(v, p, 1);
    plot_gp_xaxis(v, th, nth);
    gp_logy(v, p);
    gp_ymax(v, y->tp_max * 1.1);

    v = graph_new(gs, "speedup", "Speedup vs client threads");
    gp_curves(v, p, 0);
    plot_gp_xaxis(v, th, nth);
    gp_ymax(v, fmax(1.2, y->speedup * 1.15));

    v = graph_new(gs, "efficiency", "Parallel efficiency vs client threads");
    gp_curves(v, p, 0);
    plot_gp_xaxis(v, th, nth);
    gp_ymax(v, y->eff * 1.1);
}

/* cpus, when the results hold more than one CPU count; said when not. 0 or -1. */
static int cpus_graph(const struct plot *p, struct graphs *gs)
{
    double ycpu;
    struct sbuf *v = graph_new(gs, "cpus", "Throughput vs server CPUs, per client thread count");
    int ns = plot_gp_cpus_vars(p, v, &ycpu);
    if (ns < 0)
        return -1;
    if (ns > 0) {
        gp_logy(v, p);
        gp_ymax(v, ycpu * 1.1);
    } else {
        sbuf_printf(&p->log->out,
                    "(no throughput-vs-CPUs graph: the results hold a single CPU count)\n");
        graph_drop(gs);
    }
    return 0;
}

/* latency and tput-latency, when the results hold latency percentiles; said when not. */
static void latency_graphs(const struct plot *p, struct graphs *gs, const double *th, size_t nth,
                           const struct yranges *y)
{
    if (!y->have_lat) {
        sbuf_printf(&p->log->out, "(no latency graphs: the results hold no latency percentiles)\n");
        return;
    }
    struct sbuf *v = graph_new(gs, "latency", "Latency percentiles vs client threads");
    gp_curves(v, p, 0);
    plot_gp_xaxis(v, th, nth);

    v = graph_new(gs, "tput-latency", "Throughput vs p95 latency (labels: client threads)");
    gp_curves(v, p, 0);
    gp_ymax(v, y->tp_med * 1.15);
}

/* baseline, when there is a kernel baseline: its task counts join the x axis
 * (th has room for them). 0 or -1. */
static int baseline_graph(const struct plot *p, struct graphs *gs, double *th, size_t nth,
                          const struct yranges *y)
{
    if (p->nmc == 0)
        return 0;
    double ymc = y->speedup;
    struct sbuf *v = graph_new(gs, "baseline", "Normalised scaling: database vs kernel baseline");
    gp_curves(v, p, 0);
    if (plot_gp_baseline_vars(p, v, &ymc) < 0)
        return -1;
    for (size_t j = 0; j < p->nmc; j++)
        for (size_t t = 0; t < p->mc[j].k; t++)
            th[nth++] = p->mc[j].n[t];
    plot_gp_xaxis(v, th, nth);
    gp_ymax(v, fmax(1.2, ymc * 1.15));
    return 0;
}

/* A graph of panels, left out when vars finds none. 0 or -1. */
static int panel_graph(const struct plot *p, struct graphs *gs, const char *name, const char *title,
                       int (*vars)(const struct plot *, struct sbuf *))
{
    int n = vars(p, graph_new(gs, name, title));
    if (n == 0)
        graph_drop(gs);
    return n < 0 ? -1 : 0;
}

/* Every graph database results allow, in drawing order. 0 or -1. */
static int db_graphs(const struct plot *p, struct graphs *gs)
{
    double *th;
    size_t nth;
    all_threads(p, &th, &nth);
    struct yranges y = curve_ranges(p);
    scaling_graphs(p, gs, th, nth, &y);
    int rc = cpus_graph(p, gs);
    if (rc == 0) {
        latency_graphs(p, gs, th, nth, &y);
        rc = baseline_graph(p, gs, th, nth, &y);
    }
    if (rc == 0)
        rc = panel_graph(p, gs, "timeseries",
                         "Throughput and p95 latency over each level's measured time",
                         plot_gp_timeseries_vars);
    if (rc == 0)
        rc = panel_graph(p, gs, "latency-cdf",
                         "Latency distribution per client thread count (all repeats)",
                         plot_gp_latdist_vars);
    free(th);
    return rc;
}

/* The scripts into p->out: graphs/common.gp, then each graph's style and
 * its generated wrapper. 0, or below 0 as plot_gp_write. */
static int write_scripts(const struct plot *p, const struct graphs *gs)
{
    int rc = copy_script(p, "common.gp");
    for (size_t i = 0; i < gs->n && rc == 0; i++) {
        char name[64];
        snprintf(name, sizeof name, "%s.gp", gs->g[i].name);
        rc = copy_script(p, name);
        if (rc == 0)
            rc = write_wrapper(p, gs->g[i].name, gs->g[i].title, &gs->g[i].vars);
    }
    return rc;
}

/* gnuplot on g's script once per format, each image checked and its path
 * logged. 0 or -1. */
static int draw_graph(const struct plot *p, const struct graph *g, const char *formats)
{
    char fmts[64], err[20000], *save = NULL;
    snprintf(fmts, sizeof fmts, "%s", formats);
    for (char *f = strtok_r(fmts, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
        char script[64], img[1024];
        snprintf(script, sizeof script, "%s.gp", g->name);
        snprintf(img, sizeof img, "%s/%s.%s", p->out, g->name, f);
        /* gnuplot opens its output by name and follows a link planted
         * there; an old image would pass for a new one below: neither
         * stays */
        struct stat st;
        if (lstat(img, &st) == 0 && !S_ISDIR(st.st_mode))
            unlink(img);
        if (plot_gp_run(p->out, script, f, &p->log->warn, err, sizeof err) < 0) {
            plot_fail(p, "%s", err);
            return -1;
        }
        if (lstat(img, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
            plot_fail(p, "gnuplot made no %s", img);
            return -1;
        }
        if (p->written) {
            char rel[96];
            snprintf(rel, sizeof rel, "%s.%s", g->name, f);
            plot_files_add(p->written, rel);
        }
        sbuf_printf(&p->log->out, "graph: %s\n", img);
    }
    return 0;
}

int plot_gp_graphs(const struct plot *p, const char *formats)
{
    struct graphs gs = {.wl = workloads(p)};
    int rc = 0;
    if (p->nc > 0)
        rc = db_graphs(p, &gs);
    else if (p->nmc > 0) /* `micro` or `fs` results alone: their own graph, nothing else */
        rc = plot_gp_kernel_vars(
            p, graph_new(&gs, "kernel", "Kernel baseline: operations/s vs tasks, per test"));
    if (rc == 0)
        rc = write_scripts(p, &gs);
    for (size_t i = 0; i < gs.n && rc == 0; i++)
        rc = draw_graph(p, &gs.g[i], formats);
    for (size_t i = 0; i < gs.n; i++)
        graph_free(&gs.g[i]);
    return rc;
}
