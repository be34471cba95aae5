/*
 * page_flame.c - folded stacks drawn as a flame graph in plain SVG.
 *
 * The one idea: merge the stacks into a tree of frames (a child per distinct
 * callee, summed), then lay each frame out at its parent's left edge plus
 * its elder siblings' widths: a box's width is its share of all samples, so
 * the widest boxes are where the time went. Frames narrower than a sliver
 * are left out with their callees, and frames deeper than MAXDEP are not
 * kept, which bounds the page's size and the tree's depth whatever the
 * profile. Every name reaches the page through page_esc().
 */
#include "page/page_flame.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/folded.h"
#include "page/page_html.h"

#define W      1080.0
#define ROW    16
#define MAXDEP 96

struct fnode {
    char *name;
    double n;
    struct fnode *child, *next;
    const struct fnode *twin; /* a differential graph: the same frame in A, or NULL */
};

static struct fnode *child(struct fnode *p, const char *name, size_t len)
{
    struct fnode **at = &p->child;
    while (*at && (strlen((*at)->name) != len || memcmp((*at)->name, name, len) != 0))
        at = &(*at)->next;
    if (!*at) {
        *at = xcalloc(1, sizeof **at);
        (*at)->name = xmalloc(len + 1);
        memcpy((*at)->name, name, len);
        (*at)->name[len] = '\0';
    }
    return *at;
}

static void tree_free(struct fnode *n)
{
    while (n) {
        struct fnode *next = n->next;
        tree_free(n->child);
        free(n->name);
        free(n);
        n = next;
    }
}

static int depth(const struct fnode *n, double min)
{
    int d = 0;
    for (const struct fnode *c = n->child; c; c = c->next)
        if (c->n >= min) {
            int x = depth(c, min) + 1;
            d = x > d ? x : d;
        }
    return d;
}

/* siblings in name order, as flame graphs draw them */
static int by_name(const void *a, const void *b)
{
    return strcmp((*(struct fnode *const *)a)->name, (*(struct fnode *const *)b)->name);
}

static unsigned hash(const char *s)
{
    unsigned h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

struct layout {
    struct sbuf *b;
    double total, min;
    int height;
    size_t boxes;
    double twin_total; /* a differential graph: A's samples (0: an ordinary graph) */
};

static void draw(struct layout *L, const struct fnode *n, double x, int d)
{
    double w = n->n / L->total * W;
    double y = L->height - (d + 1) * ROW - 2;
    size_t len = strlen(n->name);
    int kernel = len > 4 && !strcmp(n->name + len - 4, "_[k]");
    unsigned h = hash(n->name);
    char fill[48];
    /* a differential graph: red where the frame's share of B grew over A's,
     * blue where it fell, white where it held; the hover says by how much */
    double sb = n->n / L->total, sa = n->twin ? n->twin->n / L->twin_total : 0;
    int light = 100 - (int)(fabs(sb - sa) / (sb > sa ? sb : sa > 0 ? sa : 1) * 55);
    if (L->twin_total > 0 && d > 0)
        snprintf(fill, sizeof fill, "hsl(%d,80%%,%d%%)", sb >= sa ? 0 : 220,
                 light < 45 ? 45 : light);
    else if (d == 0)
        snprintf(fill, sizeof fill, "#c8c8c8");
    else if (kernel)
        snprintf(fill, sizeof fill, "hsl(%u,85%%,%u%%)", 28 + h % 12, 55 + (h >> 8) % 15);
    else
        snprintf(fill, sizeof fill, "hsl(%u,80%%,%u%%)", h % 50, 58 + (h >> 8) % 14);
    sbuf_printf(L->b, "<g><title>");
    if (L->twin_total > 0)
        page_escf(L->b, "%s (%.2f%% of B, %.2f%% of A, %+.2f points)", n->name, 100 * sb, 100 * sa,
                  100 * (sb - sa));
    else
        page_escf(L->b, "%s (%.0f samples, %.2f%%)", n->name, n->n, 100 * n->n / L->total);
    sbuf_printf(L->b,
                "</title><rect class=\"fr\" x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
                "fill=\"%s\" rx=\"1\"/>",
                x, y, w > 0.3 ? w - 0.3 : w, ROW - 1, fill);
    int chars = (int)((w - 6) / 6.6);
    if (chars >= 3) {
        sbuf_printf(L->b, "<text x=\"%.2f\" y=\"%.0f\">", x + 3, y + ROW - 4);
        if ((int)len <= chars)
            page_esc(L->b, n->name);
        else
            page_escf(L->b, "%.*s..", chars - 2, n->name);
        sbuf_printf(L->b, "</text>");
    }
    sbuf_printf(L->b, "</g>\n");
    L->boxes++;
    if (d + 1 >= MAXDEP)
        return;
    size_t nc = 0;
    for (const struct fnode *c = n->child; c; c = c->next)
        nc++;
    const struct fnode **kids = xcalloc(nc + 1, sizeof *kids);
    nc = 0;
    for (const struct fnode *c = n->child; c; c = c->next)
        kids[nc++] = c;
    qsort(kids, nc, sizeof *kids, by_name);
    double cx = x;
    for (size_t i = 0; i < nc; i++) {
        if (kids[i]->n >= L->min)
            draw(L, kids[i], cx, d + 1);
        cx += kids[i]->n / L->total * W;
    }
    free(kids);
}

/* The folded text merged into a tree under root (root->n: all samples). */
static void tree_build(struct fnode *root, const char *folded)
{
    for (const char *l = folded; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l), len;
        double c = folded_line(l, n, &len);
        if (c > 0) {
            root->n += c;
            struct fnode *at = root;
            /* frames deeper than MAXDEP are never drawn: not kept either,
             * so a stack of millions of frames costs MAXDEP nodes and the
             * tree's walks stay MAXDEP deep */
            int d = 0;
            for (size_t s = 0; s < len && ++d < MAXDEP;) {
                size_t f = s;
                while (f < len && l[f] != ';')
                    f++;
                at = child(at, l + s, f - s);
                at->n += c;
                s = f + 1;
            }
        }
        l = e ? e + 1 : NULL;
    }
}

size_t page_flame(struct sbuf *b, const char *title, const char *folded, double min_share)
{
    struct fnode root = {.name = "all"};
    tree_build(&root, folded);
    if (root.n <= 0) {
        sbuf_printf(b, "<p class=\"note\">");
        page_escf(b, "%s: no samples.", title);
        sbuf_printf(b, "</p>\n");
        return 0;
    }
    struct layout L = {b, root.n, root.n * min_share, 0, 0};
    int d = depth(&root, L.min) + 1;
    if (d > MAXDEP)
        d = MAXDEP;
    L.height = d * ROW + 26;
    sbuf_printf(b,
                "<svg class=\"flame\" viewBox=\"0 0 %.0f %d\" role=\"img\" "
                "style=\"width:100%%;height:auto;border:1px solid #e4e4e4\"><text "
                "class=\"title\" x=\"4\" y=\"16\">",
                W, L.height);
    page_escf(b, "%s (%.0f samples)", title, root.n);
    sbuf_printf(b, "</text>\n");
    draw(&L, &root, 0, 0);
    sbuf_printf(b, "</svg>\n");
    tree_free(root.child);
    return L.boxes;
}

/* Each frame of b gets its twin in a: the same name under the same path. */
static void twin(struct fnode *b, const struct fnode *a)
{
    for (struct fnode *c = b->child; c; c = c->next) {
        const struct fnode *t = NULL;
        for (const struct fnode *x = a ? a->child : NULL; x && !t; x = x->next)
            if (!strcmp(x->name, c->name))
                t = x;
        c->twin = t;
        twin(c, t);
    }
}

size_t page_flame_diff(struct sbuf *b, const char *title, const char *folded_a,
                       const char *folded_b, double min_share)
{
    struct fnode ra = {.name = "all"}, rb = {.name = "all"};
    tree_build(&ra, folded_a);
    tree_build(&rb, folded_b);
    size_t boxes = 0;
    if (ra.n <= 0 || rb.n <= 0) {
        sbuf_printf(b, "<p class=\"note\">");
        page_escf(b, "%s: no samples on a side.", title);
        sbuf_printf(b, "</p>\n");
    } else {
        twin(&rb, &ra); /* both trees are at most MAXDEP deep */
        rb.twin = &ra;
        struct layout L = {b, rb.n, rb.n * min_share, 0, 0, ra.n};
        int d = depth(&rb, L.min) + 1;
        L.height = (d > MAXDEP ? MAXDEP : d) * ROW + 26;
        sbuf_printf(b,
                    "<svg class=\"flame diff\" viewBox=\"0 0 %.0f %d\" role=\"img\" "
                    "style=\"width:100%%;height:auto;border:1px solid #e4e4e4\"><text "
                    "class=\"title\" x=\"4\" y=\"16\">",
                    W, L.height);
        page_escf(b,
                  "%s (B %.0f samples against A %.0f; red: a larger share in B, blue: "
                  "smaller)",
                  title, rb.n, ra.n);
        sbuf_printf(b, "</text>\n");
        draw(&L, &rb, 0, 0);
        sbuf_printf(b, "</svg>\n");
        boxes = L.boxes;
    }
    tree_free(ra.child);
    tree_free(rb.child);
    return boxes;
}
