/*
 * verdict_internal.h - how verdict.c's parts call each other: the points
 * (verdict_points.c), the curves' bootstrap figures (verdict_curves.c) and
 * the explanations (verdict_explain.c). Not for other rooms: they read
 * verdict.h.
 */
#ifndef DBSCALE_VERDICT_INTERNAL_H
#define DBSCALE_VERDICT_INTERNAL_H

#include "analysis/verdict.h"

/* The repeats of figure f at curve c's point of threads (results.csv rows, not
 * disturbed, completed something, the figure measured) into v (at most
 * max), or one value per boot (its repeats' median) where they ran in two
 * boots or more; *dropped += the repeats left out. The count. */
size_t verdict_values(const struct curves *cv, const struct curve *c, double threads,
                      enum verdict_fig f, double *v, size_t max, int *dropped);
/* Every pair's shared points, each figure's effect, the grid's q-values
 * and each point's class, into v->pts; the points one side has alone into
 * v->one_side. */
void verdict_points(struct verdict *v, const struct curves *cv);
/* Each pair's peak, knee and peak ratio, and each directory's scaling over
 * CPUs, with bootstrap intervals. */
void verdict_curves(struct verdict *v, const struct curves *cv);
/* What changed most at every point found better or worse. */
void verdict_explain(struct verdict *v, const struct curves *cv);

#endif
