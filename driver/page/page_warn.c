/*
 * page_warn.c - what a reader of the page must doubt, said next to the
 * figures instead of left for them to notice: a point whose repeats spread
 * wide, a point above its ideal (superlinear), a curve without a meaningful
 * USL fit, client and server sharing CPUs, a level whose server was mostly
 * idle, a level the sweep marked disturbed.
 *
 * The one idea: each warning is a test on figures curves.c already holds
 * (struct curve) or on the curve's own result rows, phrased as a line a
 * reader can act on. Thresholds are named in page_warn.h.
 *
 * Never compute statistics (stats.c does), never write markup (page.c does).
 */
#include "page/page_warn.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int row_of(const struct result_row *r, const struct curve *c)
{
    return r->cpus == c->cpus && !strcmp(r->engine, c->engine) &&
           !strcmp(r->workload, c->workload) && !strcmp(r->variant, c->variant);
}

/* Thread counts of c's rows with a flag set, "1, 4" (at most len), in one
 * pass over the directory's rows (a study may hold thousands of curves). */
static size_t rows_flagged(const struct curves *cv, const struct curve *c, int shared, char *list,
                           size_t len, const struct result_row **first)
{
    const struct result_set *rs = &cv->dirs[c->dir].rs;
    unsigned char hit[CURVE_MAXPTS] = {0};
    *first = NULL;
    for (size_t i = 0; i < rs->n; i++) {
        const struct result_row *r = &rs->rows[i];
        if (!(shared ? r->shared_cpus : r->disturbed) || !row_of(r, c))
            continue;
        for (size_t t = 0; t < c->k; t++)
            if (c->n[t] == r->threads) {
                hit[t] = 1;
                *first = *first ? *first : r;
            }
    }
    size_t n = 0;
    list[0] = '\0';
    for (size_t t = 0; t < c->k; t++)
        if (hit[t]) {
            size_t l = strlen(list);
            snprintf(list + l, len - l, "%s%g", n++ ? ", " : "", c->n[t]);
        }
    return n;
}

size_t page_warnings(const struct curves *cv, struct sbuf *lines)
{
    size_t n = 0;
    for (size_t i = 0; i < cv->nc; i++) {
        const struct curve *c = &cv->c[i];
        char who[300], at[256];
        snprintf(who, sizeof who, "c%zu %s", i + 1, c->label);
        /* One line per kind and curve, the thread counts listed: a reader
         * sees each doubt once, not once per point. */
        struct sbuf spread = {0}, super = {0}, idle = {0};
        for (size_t t = 0; t < c->k; t++) {
            const struct stats_summary *s = &c->tp[t];
            if (s->n >= 2 && s->mean > 0 && s->sd / s->mean > PAGE_WARN_SPREAD)
                sbuf_printf(&spread, "%s%g thread%s (sd %.0f%% of the mean, %.0f..%.0f tps)",
                            spread.len ? ", " : "", c->n[t], c->n[t] == 1 ? "" : "s",
                            100 * s->sd / s->mean, s->min, s->max);
            if (c->superlinear[t])
                sbuf_printf(&super, "%s%g (%.0f%%)", super.len ? ", " : "", c->n[t],
                            100 * c->eff[t]);
            if (c->idle[t] >= PAGE_WARN_IDLE)
                sbuf_printf(&idle, "%s%.0f%% idle at %g%s", idle.len ? ", " : "", c->idle[t],
                            c->n[t],
                            idle.len       ? ""
                            : c->n[t] == 1 ? " thread"
                                           : " threads");
        }
        if (spread.len) {
            sbuf_printf(lines, "%s: wide spread over repeats at %s: the median is uncertain\n", who,
                        spread.s);
            n++;
        }
        if (super.len) {
            sbuf_printf(lines,
                        "%s: superlinear at %s threads (%% of the ideal line): the first point "
                        "was probably not CPU-bound\n",
                        who, super.s);
            n++;
        }
        if (idle.len) {
            sbuf_printf(lines,
                        "%s: server %s: those levels measured latency or the client, not the "
                        "server's CPUs\n",
                        who, idle.s);
            n++;
        }
        sbuf_free(&spread);
        sbuf_free(&super);
        sbuf_free(&idle);
        if (!c->fit_ok) {
            sbuf_printf(lines, "%s: no USL fit (%s); the curve is shown as measured\n", who,
                        c->nofit);
            n++;
        }
        const struct result_row *r;
        if (rows_flagged(cv, c, 1, at, sizeof at, &r)) {
            sbuf_printf(lines,
                        "%s: client and server shared CPUs (client %s, server %s) at %s "
                        "threads: the client's CPU time was taken from the server\n",
                        who, r->client_cpus[0] ? r->client_cpus : "?",
                        r->server_cpus[0] ? r->server_cpus : "?", at);
            n++;
        }
        if (rows_flagged(cv, c, 0, at, sizeof at, &r)) {
            sbuf_printf(lines,
                        "%s: levels marked disturbed at %s threads (something else ran on the "
                        "machine during the window): do not trust those points\n",
                        who, at);
            n++;
        }
    }
    return n;
}
