/*
 * kverdict.h - the SMP write-up's two sentences as values: SMP on one CPU
 * against UP (an SMP kernel's database points on one CPU against an UP
 * kernel's; or its kernel tests at one task, held to one CPU where it was,
 * else on all its CPUs as the reference write-up measured its "SMP
 * overhead"), and SMP's peak against UP's
 * (per workload or kernel test). Each is a change pooled over the points
 * (stats/pooled.h: the geometric mean of the ratios, minus 1) with its 95%
 * interval, the unit of replication said: the boots, paired r1 with r1 and
 * r2 with r2, where both variants have two or more (the points' ratios of a
 * boot pair averaged on the logs into one value per pair); else the points,
 * whose disagreement is then the only spread there is. A change whose
 * interval spans 0 is not established; one without an interval (one unit,
 * or no spread) inconclusive. The page renders these; it computes nothing.
 */
#ifndef DBSCALE_KVERDICT_H
#define DBSCALE_KVERDICT_H

#include <stddef.h>

#include "analysis/ktable.h"
#include "analysis/kvariants.h"
#include "core/util.h"
#include "stats/pooled.h"

#define KVERDICT_MAX 16

enum kverdict_kind {
    KVERDICT_COST, /* SMP on one CPU against UP */
    KVERDICT_PEAK, /* SMP's peak against UP's */
};

enum kverdict_unit {
    KVERDICT_BOOTS,  /* each boot pair one unit */
    KVERDICT_POINTS, /* each point (cost) or workload / test (peak) one unit */
};

enum kverdict_class {
    KVERDICT_ESTABLISHED,     /* the interval excludes 0: pooled.est's sign says which way */
    KVERDICT_NOT_ESTABLISHED, /* the interval spans 0 */
    KVERDICT_INCONCLUSIVE,    /* no interval: one unit, or ratios all equal */
};

struct kverdict_one {
    enum kverdict_kind kind;
    size_t s, u;         /* the SMP variant, the UP one (kvariants' indices) */
    enum ktable_kind on; /* database points or kernel tests */
    enum kverdict_unit unit;
    size_t npoints;            /* points (cost), workloads or tests (peak) pooled */
    size_t held;               /* cost over kernel tests: of them, SMP held to one CPU (the rest
                                * ran at one task on all its CPUs) */
    size_t nboots_s, nboots_u; /* boots of each variant there */
    char pairs[96];            /* the boot pairs, "r1-r1, r2-r2" (KVERDICT_BOOTS) */
    struct stats_pooled pooled;
    double lo_unit, hi_unit; /* the units' own changes, lowest and highest */
    enum kverdict_class cls;
    /* peak over one workload of database points: where each peak is */
    int where;
    char key[96];
    double peak_s, peak_u, x_s, x_u;
    int cpus_s, cpus_u;
};

struct kverdict {
    struct kverdict_one s[KVERDICT_MAX];
    size_t n;
    size_t more; /* (SMP, UP) pairs past KVERDICT_MAX sentences: not written, said */
};

/* The sentences for every (SMP, UP) pair of kv's variants (of the same
 * release first; any release when none pairs so), over the database points
 * when db has any, else over the kernel tests. n 0: no pair. */
void kverdict_build(const struct kvariants *kv, const struct ktable *db, const struct ktable *kt,
                    struct kverdict *v);
/* The letter a variant goes by on the page and in the text: A, B, ... */
char kverdict_letter(size_t v);
/* Sentence o in plain text (the page escapes it): "SMP on one CPU against
 * UP: not established (+20%, 95% interval -37% to +128%, which spans 0):
 * A (...) against B (...), over the 3 database points ...". */
void kverdict_sentence(const struct kvariants *kv, const struct kverdict_one *o, struct sbuf *out);

#endif
