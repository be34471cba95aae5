/*
 * plot_gp_baseline.c - the kernel baseline's part of baseline.gp: a data
 * file per kernel series and the panel arrays that put each database curve
 * beside the kernel figures measured at its own CPU count.
 *
 * The one idea: the panels are described by index arrays only (which curves,
 * which series, per CPU count), so graphs/baseline.gp can assemble its plot
 * commands from numbers and never evaluates data as text.
 *
 * Never compute a statistic beyond the normalisation drawn.
 */
#include <math.h>
#include <stdlib.h>

#include "plot/plot_gp_text.h"
#include "plot/plot_gp_vars.h"
#include "stats/stats.h"

/* One panel per CPU count (database curves and kernel series alike), so
 * each curve is drawn beside the kernel figures measured at its own count:
 * pcpus[], and per panel P the curve indices cidx[cstart[P] .. cstart[P+1]-1]
 * and the kernel series midx[mstart[P] .. mstart[P+1]-1]. */
static void gp_panels(const struct curves *cv, struct sbuf *vars)
{
    int *pc = xcalloc(cv->nc + cv->nmc + 1, sizeof *pc);
    size_t np = 0;
    for (size_t i = 0; i < cv->nc + cv->nmc; i++) {
        int c = i < cv->nc ? cv->c[i].cpus : cv->mc[i - cv->nc].cpus, seen = 0;
        for (size_t j = 0; j < np; j++)
            seen |= pc[j] == c;
        if (!seen) {
            size_t j = np++;
            for (; j > 0 && pc[j - 1] > c; j--) /* kept sorted */
                pc[j] = pc[j - 1];
            pc[j] = c;
        }
    }
    struct sbuf pcs = {0}, ci = {0}, cs = {0}, mi = {0}, ms = {0};
    size_t nci = 0, nmi = 0;
    for (size_t q = 0; q < np; q++) {
        sbuf_printf(&pcs, "%s%d", q ? ", " : "", pc[q]);
        sbuf_printf(&cs, "%s%zu", q ? ", " : "", nci + 1);
        sbuf_printf(&ms, "%s%zu", q ? ", " : "", nmi + 1);
        for (size_t i = 0; i < cv->nc; i++)
            if (cv->c[i].cpus == pc[q])
                sbuf_printf(&ci, "%s%zu", nci++ ? ", " : "", i + 1);
        for (size_t j = 0; j < cv->nmc; j++)
            if (cv->mc[j].cpus == pc[q])
                sbuf_printf(&mi, "%s%zu", nmi++ ? ", " : "", j + 1);
    }
    sbuf_printf(vars,
                "npanel = %zu\narray pcpus[%zu] = [%s]\n"
                "array cidx[%zu] = [%s]\narray cstart[%zu] = [%s, %zu]\n"
                "array midx[%zu] = [%s]\narray mstart[%zu] = [%s, %zu]\n",
                np, np, pcs.s, nci ? nci : 1, nci ? ci.s : "0", np + 1, cs.s, nci + 1,
                nmi ? nmi : 1, nmi ? mi.s : "0", np + 1, ms.s, nmi + 1);
    sbuf_free(&pcs), sbuf_free(&ci), sbuf_free(&cs), sbuf_free(&mi), sbuf_free(&ms);
    free(pc);
}

int plot_gp_baseline_vars(const struct curves *cv, const struct plot_out *o, struct sbuf *vars,
                          double *ymax)
{
    struct sbuf files = {0}, labels = {0};
    for (size_t j = 0; j < cv->nmc; j++) {
        const struct curve_kernel *m = &cv->mc[j];
        struct sbuf d = {0};
        sbuf_printf(&d,
                    "# %s\n# 1 tasks, 2 normalised (x first point), 3 ops/s (median), "
                    "4 linear ops/s (tasks x the first point's ops/s per task)\n",
                    m->label);
        for (size_t t = 0; t < m->k; t++) {
            double s = stats_speedup(m->n, m->x, t);
            *ymax = fmax(*ymax, s);
            sbuf_printf(&d, "%g %.4f %.1f %.1f\n", m->n[t], s, m->x[t],
                        m->k ? m->n[t] * (m->x[0] / m->n[0]) : 0);
        }
        char name[64];
        snprintf(name, sizeof name, "micro%02zu.dat", j + 1);
        int rc = plot_gp_write(o, name, &d);
        sbuf_free(&d);
        if (rc < 0)
            return -1;
        sbuf_printf(&files, "%s\"%s\"", j ? ", " : "", name);
        sbuf_add(&labels, j ? ", " : "", j ? 2 : 0);
        plot_gp_str(&labels, m->label);
    }
    sbuf_printf(vars, "m = %zu\narray mfile[%zu] = [%s]\narray mlabel[%zu] = [%s]\n", cv->nmc,
                cv->nmc, files.s, cv->nmc, labels.s);
    sbuf_free(&files);
    sbuf_free(&labels);
    gp_panels(cv, vars);
    return 0;
}
