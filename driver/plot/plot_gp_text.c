/*
 * plot_gp_text.c - what every generated gnuplot script and data file of
 * `dbscale plot` is made of: strings that gnuplot cannot run, the x axis
 * over a set of counts, and the one writer of files into the out directory.
 *
 * The one idea: data reaches a script only through plot_gp_str(), and a
 * file reaches the out directory only through plot_gp_write(), which
 * records it, so a later plot prunes exactly what this one did not write.
 */
#include "plot/plot_gp_text.h"

#include <math.h>
#include <string.h>

int plot_gp_write(const struct plot_out *o, const char *name, const struct sbuf *b)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", o->dir, name);
    int rc = write_file_atomic(path, b->s ? b->s : "", b->len);
    if (rc < 0) {
        if (!o->log->err[0])
            snprintf(o->log->err, sizeof o->log->err, "cannot write %s: %s", path, strerror(-rc));
    } else if (o->written)
        plot_files_add(o->written, name);
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
