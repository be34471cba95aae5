/*
 * page_svg.h - line charts drawn as inline SVG for the page: one series per
 * curve, a circle per data point, optional min/max bars and ideal line, a
 * legend. Numbers in, markup out; the chart knows no results directory.
 */
#ifndef DBSCALE_PAGE_SVG_H
#define DBSCALE_PAGE_SVG_H

#include <stddef.h>

#include "core/util.h"

#define PAGE_SVG_MAXPTS 64

struct page_series {
    char label[256];
    size_t k;
    double x[PAGE_SVG_MAXPTS], y[PAGE_SVG_MAXPTS];
    double lo[PAGE_SVG_MAXPTS], hi[PAGE_SVG_MAXPTS]; /* used when bars */
    int bars;   /* draw lo..hi as a vertical bar at each point */
    int dashed; /* a reference line (ideal, kernel baseline), not a measurement */
    /* the series' ideal (as the gnuplot graphs draw it), a thin dotted line
     * in the series' colour, inside the frame like the data; used when
     * has_ideal */
    double ideal[PAGE_SVG_MAXPTS];
    int has_ideal;
};

struct page_chart {
    const char *title, *xlabel, *ylabel;
    int logx; /* x on a log2 scale (thread counts 1, 2, 4 ... 1024) */
    struct page_series *s;
    size_t ns;
    const char *ideal_label; /* the legend's words for the dotted ideal lines */
};

/* Append c as one <svg> element. Points whose x or y is not finite (or x <= 0
 * on a log axis) are left out. Returns the number of data points drawn, each
 * a <circle class="pt">. */
size_t page_svg_chart(struct sbuf *b, const struct page_chart *c);

#endif
