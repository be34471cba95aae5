/*
 * pooled.h - one change pooled over several points from their ratios r_i
 * (B / A at each point: "SMP on one CPU against UP" over the thread counts):
 * the geometric mean of the r_i, minus 1, with a Student t interval over the
 * points on the log scale, and whether the change is established.
 *
 * Established means the interval excludes 0; with fewer than two units, or
 * ratios all equal (no spread to judge by), there is no interval and nothing
 * is established. Three points at -11%, +43% and +35% pool to +20% with an
 * interval of about -37%..+128%: "not established", not "gains 35%".
 */
#ifndef DBSCALE_STATS_POOLED_H
#define DBSCALE_STATS_POOLED_H

#include <stddef.h>

enum stats_pooled_why {
    STATS_POOLED_OK,        /* an interval; established says which way it falls */
    STATS_POOLED_ONE,       /* fewer than 2 units: no interval */
    STATS_POOLED_NO_SPREAD, /* every ratio the same: no interval */
    STATS_POOLED_BAD,       /* no units, or a ratio <= 0 or not finite */
};

struct stats_pooled {
    enum stats_pooled_why why;
    size_t m;      /* units pooled (points, or boots) */
    double est;    /* exp(mean log r) - 1; NAN when BAD */
    double lo, hi; /* its interval at level conf; NAN without one */
    double se, df; /* of mean log r, over the units; NAN without an interval */
    double conf;
    int established; /* an interval, and it excludes 0 */
};

/* r[m] ratios (> 0), each unit one independent replicate; conf 0 takes 0.95.
 * 0 when there is an interval, -1 otherwise (p->why says why). */
int stats_pooled(const double *r, size_t m, double conf, struct stats_pooled *p);

/* The unit of replication, the caller's call: each point one unit (its
 * boots' log ratios averaged first), or each boot one unit (all ratios
 * pooled flat; right only when boots are independent of their point). */
enum stats_pool_unit { STATS_POOL_POINTS, STATS_POOL_BOOTS };

/* r[i][0..nr[i]): the ratios at point i, one per boot (pair of runs). */
int stats_pooled_groups(const double *const *r, const size_t *nr, size_t k,
                        enum stats_pool_unit unit, double conf, struct stats_pooled *p);

#endif
