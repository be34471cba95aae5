/*
 * classify.c - one point's class from its effect and q-value (see
 * classify.h for the rules).
 *
 * The one idea: a mark (better, worse) needs three things at once - a change
 * that survives false-discovery control over the whole grid, an interval
 * that excludes no change, and a size that matters - while "the same" needs
 * the interval, not just the estimate, inside the threshold. Anything else is
 * inconclusive, with the reason that a reader can act on.
 *
 * Never marks a point without an interval, and never reads "not tested" as
 * "no change".
 */
#include "stats/classify.h"

#include <math.h>
#include <string.h>

void stats_classify(const struct stats_effect *e, double q, const struct stats_class_opt *o,
                    struct stats_verdict *v)
{
    double delta = o && o->delta > 0 && o->delta < 1 ? o->delta : 0.05;
    double fdr = o && o->fdr > 0 && o->fdr < 1 ? o->fdr : 0.05;
    size_t cap = o && o->cap >= 2 ? o->cap : 100;
    enum stats_dir dir = o ? o->dir : STATS_HIGHER_BETTER;
    memset(v, 0, sizeof *v);
    v->cls = STATS_INCONCLUSIVE;
    v->q = q;
    v->delta = delta;
    switch (e->why) {
    case STATS_EFFECT_OK:
        break;
    case STATS_EFFECT_ONE_RUN:
        v->reason = STATS_REASON_ONE_RUN;
        v->repeats = stats_effect_repeats(e, delta, cap);
        return;
    case STATS_EFFECT_NO_SPREAD:
        v->reason = STATS_REASON_NO_SPREAD;
        return;
    default:
        v->reason = STATS_REASON_BAD;
        return;
    }
    if (e->lo >= -delta && e->hi <= delta) {
        v->cls = STATS_SAME;
        return;
    }
    int excludes0 = e->lo > 0 || e->hi < 0;
    if (isnan(q))
        v->reason = STATS_REASON_NOT_TESTED;
    else if (!excludes0)
        v->reason = STATS_REASON_SPANS;
    else if (!(q <= fdr))
        v->reason = STATS_REASON_FDR;
    else if (fabs(e->est) < delta)
        v->reason = STATS_REASON_BELOW;
    else {
        int up = e->est > 0;
        v->cls = up == (dir == STATS_HIGHER_BETTER) ? STATS_BETTER : STATS_WORSE;
        return;
    }
    if (v->reason == STATS_REASON_SPANS || v->reason == STATS_REASON_BELOW)
        v->repeats = stats_effect_repeats(e, delta, cap);
}

const char *stats_class_name(enum stats_class c)
{
    static const char *const names[] = {"same", "better", "worse", "inconclusive"};
    return (unsigned)c < sizeof names / sizeof *names ? names[c] : "?";
}

const char *stats_reason_text(enum stats_reason r)
{
    static const char *const texts[] = {
        "",
        "fewer than 2 repeats on a side",
        "no spread on either side",
        "not measured on a side",
        "interval spans the threshold",
        "significant but below the threshold",
        "not significant after false-discovery control",
        "not tested",
    };
    return (unsigned)r < sizeof texts / sizeof *texts ? texts[r] : "?";
}
