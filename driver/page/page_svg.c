/*
 * page_svg.c - the page's charts, drawn as inline SVG from numbers, so the
 * page needs no image files, no gnuplot and no script to show them.
 *
 * The one idea: every chart is the same small machine (axes from the data's
 * range, ticks at the data's own x values when there are few, a polyline and
 * a circle per point, optional min/max bars, a legend below), and only what
 * is finite is drawn: a missing figure is a gap, never a NaN in the markup or
 * a point at the origin.
 *
 * Never read results or decide what a chart shows (page.c does); every label
 * goes through page_esc().
 */
#include "page/page_svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "page/page_html.h"

/* One chart a row, about 1000 px wide on screen and a page's width on
 * paper: the text sizes (page.c's CSS, 15-18 units) stay 13 px or more
 * either way. */
#define W      900.0
#define PLOT_H 400.0
#define ML     86.0 /* left margin: y tick labels and the y axis title */
#define MR     28.0
#define MT     42.0 /* title */
#define MB     58.0 /* x tick labels and the x axis title */
#define ROW    24.0 /* one legend line */

static const char *const colour[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                     "#ff7f0e", "#17becf", "#8c564b", "#e377c2"};
#define NCOLOUR (sizeof colour / sizeof colour[0])

struct frame {
    double x0, x1, y0, y1; /* data range */
    int logx;
};

static int usable(const struct frame *f, double x, double y)
{
    return isfinite(x) && isfinite(y) && (!f->logx || x > 0);
}

static double fx(const struct frame *f, double x)
{
    double a = f->logx ? log2(x) : x, lo = f->logx ? log2(f->x0) : f->x0,
           hi = f->logx ? log2(f->x1) : f->x1;
    return ML + (a - lo) / (hi - lo) * (W - ML - MR);
}

static double fy(const struct frame *f, double y)
{
    return MT + PLOT_H - (y - f->y0) / (f->y1 - f->y0) * PLOT_H;
}

/* 1, 2 or 5 times a power of ten, at least raw. */
static double nice_step(double raw)
{
    double p = pow(10, floor(log10(raw))), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

static void range(const struct page_chart *c, struct frame *f)
{
    f->logx = c->logx;
    f->x0 = INFINITY, f->x1 = -INFINITY, f->y0 = 0, f->y1 = -INFINITY;
    for (size_t s = 0; s < c->ns; s++)
        for (size_t i = 0; i < c->s[s].k; i++) {
            const struct page_series *p = &c->s[s];
            if (!usable(f, p->x[i], p->y[i]))
                continue;
            double hi = p->bars && isfinite(p->hi[i]) ? fmax(p->hi[i], p->y[i]) : p->y[i];
            double lo = p->bars && isfinite(p->lo[i]) ? fmin(p->lo[i], p->y[i]) : p->y[i];
            if (p->has_ideal && isfinite(p->ideal[i])) /* the ideal stays in the frame */
                hi = fmax(hi, p->ideal[i]), lo = fmin(lo, p->ideal[i]);
            f->x0 = fmin(f->x0, p->x[i]), f->x1 = fmax(f->x1, p->x[i]);
            f->y0 = fmin(f->y0, lo), f->y1 = fmax(f->y1, hi);
        }
    if (!isfinite(f->x0)) /* nothing to draw */
        f->x0 = 1, f->x1 = 2;
    if (f->x1 <= f->x0) { /* one x value: centre it */
        f->x0 = f->logx ? f->x0 / 2 : f->x0 - 1;
        f->x1 = f->logx ? f->x1 * 2 : f->x1 + 1;
    }
    if (!(f->y1 > f->y0))
        f->y1 = f->y0 + 1;
    double step = nice_step((f->y1 - f->y0) / 5);
    f->y1 = ceil(f->y1 / step) * step;
    f->y0 = floor(f->y0 / step) * step;
}

static void axes(struct sbuf *b, const struct page_chart *c, const struct frame *f)
{
    double bottom = MT + PLOT_H;
    double step = nice_step((f->y1 - f->y0) / 5);
    for (double y = f->y0; y <= f->y1 + step / 2; y += step) {
        double py = fy(f, y);
        sbuf_printf(b, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", ML,
                    py, W - MR, py);
        sbuf_printf(b,
                    "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.6g</text>\n",
                    ML - 8, py + 5, fabs(y) < step / 1e6 ? 0 : y);
    }
    /* x ticks: the data's own x values when there are few (thread and CPU
     * counts), else evenly spaced. */
    double xs[PAGE_SVG_MAXPTS];
    size_t nx = 0;
    for (size_t s = 0; s < c->ns && nx <= 12; s++)
        for (size_t i = 0; i < c->s[s].k && nx <= 12; i++) {
            double x = c->s[s].x[i];
            int seen = !usable(f, x, c->s[s].y[i]);
            for (size_t j = 0; j < nx && !seen; j++)
                seen = xs[j] == x;
            if (!seen)
                xs[nx++] = x;
        }
    if (nx == 0 || nx > 12) {
        nx = 0;
        for (int i = 0; i <= 6; i++) {
            double x = f->logx ? exp2(log2(f->x0) + i * (log2(f->x1) - log2(f->x0)) / 6)
                               : f->x0 + i * (f->x1 - f->x0) / 6;
            xs[nx++] = f->logx ? round(x) : x;
        }
    }
    for (size_t j = 0; j < nx; j++) {
        double px = fx(f, xs[j]);
        sbuf_printf(b, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", px,
                    MT, px, bottom);
        sbuf_printf(
            b, "<text class=\"tick\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.4g</text>\n",
            px, bottom + 20, xs[j]);
    }
    sbuf_printf(b, "<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
                ML, MT, W - ML - MR, PLOT_H);
    sbuf_printf(b, "<text class=\"title\" x=\"%.1f\" y=\"26\" text-anchor=\"middle\">", W / 2);
    page_esc(b, c->title);
    sbuf_printf(b, "</text>\n<text class=\"axis\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
                ML + (W - ML - MR) / 2, bottom + 46);
    page_esc(b, c->xlabel);
    sbuf_printf(b, "%s</text>\n", c->logx ? " (log scale)" : "");
    sbuf_printf(b,
                "<text class=\"axis\" transform=\"translate(20 %.1f) rotate(-90)\" "
                "text-anchor=\"middle\">",
                MT + PLOT_H / 2);
    page_esc(b, c->ylabel);
    sbuf_printf(b, "</text>\n");
}

static size_t series(struct sbuf *b, const struct page_series *s, const char *col,
                     const struct frame *f)
{
    size_t drawn = 0;
    if (s->has_ideal) {
        sbuf_printf(b, "<polyline class=\"line ideal\" stroke=\"%s\" points=\"", col);
        for (size_t i = 0; i < s->k; i++)
            if (usable(f, s->x[i], s->ideal[i]))
                sbuf_printf(b, "%s%.1f,%.1f", drawn++ ? " " : "", fx(f, s->x[i]),
                            fy(f, s->ideal[i]));
        sbuf_printf(b, "\"/>\n");
        drawn = 0;
    }
    sbuf_printf(b, "<polyline class=\"line%s\" stroke=\"%s\" points=\"", s->dashed ? " dash" : "",
                col);
    for (size_t i = 0; i < s->k; i++)
        if (usable(f, s->x[i], s->y[i]))
            sbuf_printf(b, "%s%.1f,%.1f", drawn++ ? " " : "", fx(f, s->x[i]), fy(f, s->y[i]));
    sbuf_printf(b, "\"/>\n");
    drawn = 0;
    for (size_t i = 0; i < s->k; i++) {
        if (!usable(f, s->x[i], s->y[i]))
            continue;
        double px = fx(f, s->x[i]), py = fy(f, s->y[i]);
        if (s->bars && isfinite(s->lo[i]) && isfinite(s->hi[i])) {
            double a = fy(f, s->lo[i]), z = fy(f, s->hi[i]);
            sbuf_printf(b,
                        "<path class=\"bar\" stroke=\"%s\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f "
                        "%.1fH%.1f\"/>",
                        col, px, a, z, px - 4, a, px + 4, px - 4, z, px + 4);
        }
        sbuf_printf(b, "<circle class=\"pt\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>",
                    px, py, col);
        page_esc(b, s->label);
        sbuf_printf(b, ": %g, %.6g", s->x[i], s->y[i]);
        if (s->bars && isfinite(s->lo[i]) && isfinite(s->hi[i]))
            sbuf_printf(b, " (min %.6g, max %.6g)", s->lo[i], s->hi[i]);
        sbuf_printf(b, "</title></circle>\n");
        drawn++;
    }
    return drawn;
}

size_t page_svg_chart(struct sbuf *b, const struct page_chart *c)
{
    struct frame f;
    range(c, &f);
    int ideals = 0;
    for (size_t s = 0; s < c->ns; s++)
        ideals |= c->s[s].has_ideal;
    double rows = (double)c->ns + (ideals ? 1 : 0);
    double h = MT + PLOT_H + MB + ROW * rows + 8;
    sbuf_printf(b, "<svg class=\"chart\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"", W,
                h);
    page_esc(b, c->title);
    sbuf_printf(b, "\">\n");
    axes(b, c, &f);
    size_t drawn = 0;
    for (size_t s = 0; s < c->ns; s++)
        drawn += series(b, &c->s[s], colour[s % NCOLOUR], &f);
    for (size_t s = 0; s < c->ns; s++) {
        double y = MT + PLOT_H + MB + ROW * (double)s + 12;
        sbuf_printf(b,
                    "<line class=\"line%s\" stroke=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
                    "y2=\"%.1f\"/><text class=\"legend\" x=\"%.1f\" y=\"%.1f\">",
                    c->s[s].dashed ? " dash" : "", colour[s % NCOLOUR], ML, y, ML + 32, y, ML + 42,
                    y + 5);
        page_esc(b, c->s[s].label);
        sbuf_printf(b, "%s</text>\n", c->s[s].bars ? " (bars: min..max over repeats)" : "");
    }
    if (ideals) {
        double y = MT + PLOT_H + MB + ROW * (double)c->ns + 12;
        sbuf_printf(b,
                    "<line class=\"line ideal\" stroke=\"#555\" x1=\"%.1f\" y1=\"%.1f\" "
                    "x2=\"%.1f\" y2=\"%.1f\"/><text class=\"legend\" x=\"%.1f\" y=\"%.1f\">",
                    ML, y, ML + 32, y, ML + 42, y + 5);
        page_esc(b, c->ideal_label ? c->ideal_label : "ideal");
        sbuf_printf(b, "</text>\n");
    }
    sbuf_printf(b, "</svg>\n");
    return drawn;
}
