/*
 * effect.h - the change of B against A at one point, over its repeats: the
 * ratio of geometric means with a confidence interval (Welch's t on the
 * logs), the Welch p-value, and the minimum detectable effect, the smallest
 * change this point's noise could have shown.
 *
 * Changes are relative and signed on the ratio scale: +0.10 is B 10% above A,
 * -0.10 is B 10% below. Every figure is computed on the logs, where a rise
 * and the matching fall are mirror images, and only reported as exp() - 1.
 * A point with too little data has no interval: NAN figures and a reason,
 * never a zero that reads as "no change".
 */
#ifndef DBSCALE_STATS_EFFECT_H
#define DBSCALE_STATS_EFFECT_H

#include <stddef.h>

/* Why a point has no interval (or STATS_EFFECT_OK when it has one). */
enum stats_effect_why {
    STATS_EFFECT_OK,
    STATS_EFFECT_ONE_RUN,   /* fewer than 2 values on a side: no spread to judge by */
    STATS_EFFECT_NO_SPREAD, /* both sides constant: nothing to scale the change by */
    STATS_EFFECT_BAD,       /* a side empty, or a value <= 0 or not finite: no figure at all */
};

/* Zeros (or a NULL pointer) take the defaults 0.95, 0.05, 0.8. */
struct stats_effect_opt {
    double conf;  /* level of the interval */
    double alpha; /* two-sided level the MDE is computed for */
    double power; /* chance of a change of size MDE coming out significant */
};

struct stats_effect {
    enum stats_effect_why why;
    size_t na, nb;
    double est;    /* exp(mean log b - mean log a) - 1; NAN only when why == BAD */
    double lo, hi; /* its interval at level conf, same scale; NAN without one */
    double p;      /* two-sided Welch p-value on the logs; NAN without an interval */
    double mde;    /* exp(m) - 1, m = (t(1-alpha/2, df) + t(power, df)) se; the
                    * matching fall is 1 - exp(-m). NAN without an interval */
    double diff;   /* mean log b - mean log a (log(1 + est)) */
    double sa, sb; /* standard deviation of the logs per side (~ the CV); NAN with n < 2 */
    double se, df; /* standard error of diff, Welch-Satterthwaite df; NAN without an interval */
    double conf, alpha, power;
    int moderated; /* se, df, p, lo, hi and mde come from stats_moderate
                    * (stats/moderate.h), not from this point alone */
};

/* a[na], b[nb]: the repeats of A and of B (all > 0). 0 when the interval,
 * p and MDE are figures; -1 otherwise, with the reason in e->why. */
int stats_effect(const double *a, size_t na, const double *b, size_t nb,
                 const struct stats_effect_opt *o, struct stats_effect *e);

/* Repeats per side that would decide the point against the threshold delta
 * (a change of +-delta, e.g. 0.05): the smallest m whose interval, at the
 * same change and spread, would clear both -delta and +delta (lie inside
 * them, or beyond the nearer one). The Student t is taken at m's df, so
 * small counts are not overstated. With one run on a side, the other side's
 * spread stands for both. Returns m (which may not exceed the repeats there
 * are when the point is undecided for another reason), cap + 1 for "more
 * than cap", or 0 when nothing can be said (no spread, no figure). */
size_t stats_effect_repeats(const struct stats_effect *e, double delta, size_t cap);

#endif
