/*
 * page_prof.c - perf profiles on the page: top functions, what grew, flame
 * graphs.
 *
 * The one idea: a function's cost per transaction is its share of the
 * profile's samples times the server's CPU over the profiled window divided
 * by that window's transactions, so a profile taken at 4 threads and one at
 * 8 compare in the unit the rest of the page uses, whatever their lengths.
 * Self time (the function as the leaf) is what is compared: inclusive time
 * would count a caller for every callee that grew.
 */
#include "page/page_prof.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "page/page_flame.h"
#include "page/page_html.h"

/* A path with a ".." segment could leave the directory: not read. */
static int escapes(const char *path)
{
    for (const char *p = path; p; p = strchr(p, '/') ? strchr(p, '/') + 1 : NULL)
        if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || p[2] == '\0'))
            return 1;
    return 0;
}

size_t prof_points(const struct whycsv *w, const char *dir, const char *variant, int cpus,
                   struct prof_point **out)
{
    struct prof_point *p = NULL;
    size_t n = 0;
    for (size_t i = 0; i < w->nprof; i++) {
        const struct why_prof *r = &w->prof[i];
        if (r->k.cpus != cpus || strcmp(r->k.variant, variant) != 0 || escapes(r->folded))
            continue;
        size_t j = 0;
        while (j < n && p[j].threads != r->k.threads)
            j++;
        if (j == n) {
            p = xrealloc(p, (n + 1) * sizeof *p);
            memset(&p[n], 0, sizeof p[n]);
            snprintf(p[n].variant, sizeof p[n].variant, "%s", variant);
            p[n].cpus = cpus, p[n].threads = r->k.threads;
            n++;
        }
        char path[1400], err[600];
        snprintf(path, sizeof path, "%s/%s", dir, r->folded);
        if (folded_add_file(&p[j].f, path, err, sizeof err) < 0)
            continue;
        p[j].txns += r->txns;
        p[j].server_cpu_s += r->server_cpu_s;
        if (!strstr(p[j].roles, r->role))
            snprintf(p[j].roles + strlen(p[j].roles), sizeof p[j].roles - strlen(p[j].roles),
                     "%s%s", p[j].roles[0] ? ", " : "", r->role);
    }
    for (size_t a = 0; a < n; a++) /* ascending threads */
        for (size_t c = a + 1; c < n; c++)
            if (p[c].threads < p[a].threads) {
                struct prof_point t = p[a];
                p[a] = p[c], p[c] = t;
            }
    for (size_t i = 0; i < n; i++)
        folded_sort(&p[i].f);
    *out = p;
    return n;
}

void prof_points_free(struct prof_point *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        folded_free(&p[i].f);
    free(p);
}

const struct prof_point *prof_find(const struct prof_point *p, size_t n, int threads)
{
    for (size_t i = 0; i < n; i++)
        if (p[i].threads == threads && p[i].f.total > 0)
            return &p[i];
    return NULL;
}

double prof_us_txn(const struct prof_point *pt, double self)
{
    if (pt->f.total <= 0 || pt->txns <= 0)
        return 0;
    return self / pt->f.total * pt->server_cpu_s * 1e6 / pt->txns;
}

void page_prof_top(struct sbuf *b, const struct prof_point *pt, int rows)
{
    double k = 0;
    for (size_t i = 0; i < pt->f.nfn; i++)
        k += pt->f.fn[i].kernel ? pt->f.fn[i].self : 0;
    sbuf_printf(b, "<table class=\"prof\">\n<caption>");
    page_escf(b,
              "Top functions (self time) at %d threads on %d CPU%s: %.0f samples, %.0f%% in the "
              "kernel, %.1f us of server CPU per transaction",
              pt->threads, pt->cpus, pt->cpus == 1 ? "" : "s", pt->f.total,
              pt->f.total > 0 ? 100 * k / pt->f.total : 0, prof_us_txn(pt, pt->f.total));
    sbuf_printf(b, "</caption>\n<tr><th class=\"curve\">function</th><th>where</th><th>share</th>"
                   "<th>us/txn</th></tr>\n");
    for (size_t i = 0; i < pt->f.nfn && (int)i < rows; i++) {
        const struct folded_fn *f = &pt->f.fn[i];
        sbuf_printf(b, "<tr><th class=\"curve\">");
        page_esc(b, f->name);
        sbuf_printf(b, "</th><td>%s</td><td>%.1f%%</td><td>%.2f</td></tr>\n",
                    f->kernel ? "kernel" : "user", 100 * f->self / pt->f.total,
                    prof_us_txn(pt, f->self));
    }
    sbuf_printf(b, "</table>\n");
}

struct growth {
    const struct folded_fn *fn;
    double a, b;
};

static int by_growth(const void *x, const void *y)
{
    const struct growth *g = x, *h = y;
    double d = (g->b - g->a) - (h->b - h->a);
    return (d < 0) - (d > 0);
}

/* Every function of a or b with its cost per transaction at both, the
 * largest growth first. *n set; malloc'd. */
static struct growth *growths(const struct prof_point *a, const struct prof_point *b, size_t *n)
{
    struct growth *g = xcalloc(a->f.nfn + b->f.nfn + 1, sizeof *g);
    size_t k = 0;
    for (size_t i = 0; i < b->f.nfn; i++) {
        const struct folded_fn *f = &b->f.fn[i];
        g[k++] = (struct growth){f, prof_us_txn(a, folded_self(&a->f, f->name, f->kernel)),
                                 prof_us_txn(b, f->self)};
    }
    for (size_t i = 0; i < a->f.nfn; i++) { /* gone at b: fell to 0 */
        const struct folded_fn *f = &a->f.fn[i];
        if (folded_self(&b->f, f->name, f->kernel) == 0)
            g[k++] = (struct growth){f, prof_us_txn(a, f->self), 0};
    }
    qsort(g, k, sizeof *g, by_growth);
    *n = k;
    return g;
}

int prof_grown_kernel(const struct prof_point *a, const struct prof_point *b, char (*fn)[128],
                      int max)
{
    size_t n;
    struct growth *g = growths(a, b, &n);
    int k = 0;
    for (size_t i = 0; i < n && k < max; i++)
        if (g[i].fn->kernel && g[i].b > g[i].a && g[i].b > 1.2 * g[i].a)
            snprintf(fn[k++], 128, "%s", g[i].fn->name);
    free(g);
    return k;
}

void page_prof_diff(struct sbuf *b, const char *caption, const struct prof_point *a,
                    const struct prof_point *bp, int rows)
{
    size_t n;
    struct growth *g = growths(a, bp, &n);
    sbuf_printf(b, "<table class=\"prof\">\n<caption>");
    page_escf(b,
              "%s: server CPU per transaction %.1f -> %.1f us; the functions whose cost per "
              "transaction grew most (self time)",
              caption, prof_us_txn(a, a->f.total), prof_us_txn(bp, bp->f.total));
    sbuf_printf(b, "</caption>\n<tr><th class=\"curve\">function</th><th>where</th>");
    sbuf_printf(b,
                "<th>us/txn at %d thr, %d CPU%s</th><th>us/txn at %d thr, %d CPU%s</th>"
                "<th>growth</th></tr>\n",
                a->threads, a->cpus, a->cpus == 1 ? "" : "s", bp->threads, bp->cpus,
                bp->cpus == 1 ? "" : "s");
    int shown = 0;
    for (size_t i = 0; i < n && shown < rows; i++) {
        if (g[i].b <= g[i].a)
            break;
        sbuf_printf(b, "<tr><th class=\"curve\">");
        page_esc(b, g[i].fn->name);
        sbuf_printf(b, "</th><td>%s</td><td>%.2f</td><td>%.2f</td><td class=\"neg\">+%.2f us",
                    g[i].fn->kernel ? "kernel" : "user", g[i].a, g[i].b, g[i].b - g[i].a);
        if (g[i].a > 0)
            sbuf_printf(b, " (%.1fx)", g[i].b / g[i].a);
        sbuf_printf(b, "</td></tr>\n");
        shown++;
    }
    if (!shown)
        sbuf_printf(b, "<tr><td colspan=\"5\">no function's cost per transaction grew</td></tr>\n");
    sbuf_printf(b, "</table>\n");
    free(g);
}

void page_prof_flames(struct sbuf *b, const struct prof_point *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i].f.total <= 0)
            continue;
        char title[200];
        snprintf(title, sizeof title, "%s, %d CPU%s, %d threads (%s)", p[i].variant, p[i].cpus,
                 p[i].cpus == 1 ? "" : "s", p[i].threads, p[i].roles);
        sbuf_printf(b, "<details class=\"flame\"%s><summary>", i == n - 1 ? " open" : "");
        page_escf(b, "Flame graph: %s, %.1f us of server CPU per transaction", title,
                  prof_us_txn(&p[i], p[i].f.total));
        sbuf_printf(b, "</summary>\n");
        page_flame(b, title, p[i].f.text.s ? p[i].f.text.s : "", 0.002);
        sbuf_printf(b, "</details>\n");
    }
}
