/*
 * plot_gp_timeseries.c - the time series of `dbscale plot`: a small panel
 * per level (directory, variant, CPUs, threads, repeat) of intervals.csv,
 * throughput per period on the left axis and p95 latency on the right, so
 * warmup, checkpoints and stalls inside a level show where a level's one
 * median hides them.
 *
 * The one idea: a level is its rows of intervals.csv in file order (the
 * sweep writes a level's periods together), grouped by key, never merged
 * across repeats: a stall in one repeat must not be averaged away.
 *
 * Never compute a statistic here, and never let a name reach the script
 * other than through plot_gp_str().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "plot/plot_gp_text.h"
#include "plot/plot_gp_vars.h"

static int same_level(const struct interval_row *a, const struct interval_row *b)
{
    return !strcmp(a->variant, b->variant) && a->cpus == b->cpus && a->threads == b->threads &&
           a->repeat == b->repeat;
}

int plot_gp_timeseries_vars(const struct curves *cv, const struct plot_out *o, struct sbuf *vars)
{
    struct sbuf files = {0}, titles = {0};
    size_t np = 0, left = 0;
    double tmax = 0;
    for (size_t d = 0; d < cv->ndirs; d++) {
        const struct intervals *iv = &cv->dirs[d].iv;
        char *done = xcalloc(iv->n + 1, 1);
        for (size_t i = 0; i < iv->n; i++) {
            if (done[i])
                continue;
            const struct interval_row *k = &iv->rows[i];
            if (np == PLOT_MAXPANELS) {
                left++;
                for (size_t j = i; j < iv->n; j++)
                    done[j] |= same_level(&iv->rows[j], k);
                continue;
            }
            struct sbuf b = {0};
            sbuf_printf(&b,
                        "# %s cpus %d threads %d repeat %d\n# 1 t s, 2 tps, 3 p95 ms, 4 errors/s\n",
                        k->variant, k->cpus, k->threads, k->repeat);
            for (size_t j = i; j < iv->n; j++)
                if (!done[j] && same_level(&iv->rows[j], k)) {
                    const struct interval_row *r = &iv->rows[j];
                    done[j] = 1;
                    sbuf_printf(&b, "%.3f %.2f %.3f %.2f\n", r->t, r->tps, r->p95, r->errors);
                    tmax = fmax(tmax, r->t);
                }
            char name[32], title[200];
            snprintf(name, sizeof name, "ts%02zu.dat", ++np);
            int rc = plot_gp_write(o, name, &b);
            sbuf_free(&b);
            if (rc < 0) {
                free(done);
                sbuf_free(&files), sbuf_free(&titles);
                return -1;
            }
            snprintf(title, sizeof title, "%s%s%s, %d CPU%s, %d thread%s, repeat %d",
                     cv->ndirs > 1 ? cv->dirs[d].name : "", cv->ndirs > 1 ? ": " : "", k->variant,
                     k->cpus, k->cpus == 1 ? "" : "s", k->threads, k->threads == 1 ? "" : "s",
                     k->repeat);
            sbuf_printf(&files, "%s\"%s\"", np > 1 ? ", " : "", name);
            sbuf_add(&titles, ", ", np > 1 ? 2 : 0);
            plot_gp_str(&titles, title);
        }
        free(done);
    }
    if (left)
        sbuf_printf(&cv->log->out,
                    "(time series: the first %d levels drawn, %zu more in "
                    "intervals.csv)\n",
                    PLOT_MAXPANELS, left);
    if (np) {
        size_t cols = (size_t)ceil(sqrt((double)np)), rows = (np + cols - 1) / cols;
        sbuf_printf(vars,
                    "npanel = %zu\narray tsfile[%zu] = [%s]\narray tstitle[%zu] = [%s]\n"
                    "ncols = %zu\nnrows = %zu\ntmax = %g\nheight = %zu\nwidth = %zu\n",
                    np, np, files.s, np, titles.s, cols, rows, tmax > 0 ? tmax : 1,
                    rows > 3 ? rows * 230 : 700, cols > 4 ? cols * 250 : 1000);
    }
    sbuf_free(&files), sbuf_free(&titles);
    return (int)np;
}
