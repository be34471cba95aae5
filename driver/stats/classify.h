/*
 * classify.h - the class of one compared point: better, worse, the same
 * within a threshold, or inconclusive (and why, and how many repeats would
 * decide it), from its effect (effect.h) and its q-value (fdr.h).
 *
 * The rules, in order, with delta the threshold (default 0.05) and f the FDR
 * target (default 0.05):
 *   no interval (effect.h's why)                        -> INCONCLUSIVE
 *   the whole interval inside [-delta, +delta]          -> SAME
 *   q <= f, the interval excludes 0 and |est| >= delta  -> BETTER or WORSE,
 *                                                          by the direction
 *   otherwise                                           -> INCONCLUSIVE
 * A caller renders the class and the figures; nothing here prints.
 */
#ifndef DBSCALE_STATS_CLASSIFY_H
#define DBSCALE_STATS_CLASSIFY_H

#include <stddef.h>

#include "stats/effect.h"

enum stats_class { STATS_SAME, STATS_BETTER, STATS_WORSE, STATS_INCONCLUSIVE };

enum stats_reason {
    STATS_REASON_NONE,      /* decided (SAME, BETTER, WORSE) */
    STATS_REASON_ONE_RUN,   /* fewer than 2 repeats on a side */
    STATS_REASON_NO_SPREAD, /* both sides constant: no interval */
    STATS_REASON_BAD,       /* not measured on a side, or a value <= 0 */
    STATS_REASON_SPANS,     /* the interval spans 0 and a threshold: too noisy to tell */
    STATS_REASON_BELOW,     /* a real change (q <= f), but under the threshold, and the
                             * interval reaches past it */
    STATS_REASON_FDR,       /* the interval excludes 0 alone, but q > f over the grid */
    STATS_REASON_NOT_TESTED /* q is NAN: the caller did not put the point through BH */
};

/* Higher is better for throughput; lower is better for latency and CPU per transaction. */
enum stats_dir { STATS_HIGHER_BETTER, STATS_LOWER_BETTER };

/* Zeros take the defaults: delta 0.05, fdr 0.05, cap 100 (dir 0 is higher-better). */
struct stats_class_opt {
    double delta;       /* threshold of a change worth a mark, relative (0.05 = 5%) */
    double fdr;         /* false-discovery target the q-value is held to */
    enum stats_dir dir; /* which sign of the change is better */
    size_t cap;         /* repeats estimate cap: cap + 1 reads "more than cap" */
};

struct stats_verdict {
    enum stats_class cls;
    enum stats_reason reason;
    double q;       /* the q-value it was judged with */
    double delta;   /* the threshold it was judged against */
    size_t repeats; /* INCONCLUSIVE by SPANS / BELOW / ONE_RUN: repeats per side that
                     * would decide it (stats_effect_repeats); 0 when not estimated */
};

/* e: the point's effect; q: its BH q-value (for a lone comparison, e->p: BH of
 * one test is the test). */
void stats_classify(const struct stats_effect *e, double q, const struct stats_class_opt *o,
                    struct stats_verdict *v);

const char *stats_class_name(enum stats_class c);   /* "same", "better", "worse", "inconclusive" */
const char *stats_reason_text(enum stats_reason r); /* "interval spans the threshold", ... */

#endif
