/*
 * ktable.h - the kernel variants' points side by side, boots as the unit:
 * a point (a workload on k CPUs at n threads; a kernel test or fs operation
 * at k CPUs and n tasks) has, in each variant, one value per boot that
 * measured it (the median of that boot's repeats), and a value per variant
 * (the median of those). Between every pair of variants, at every point, the
 * reference table's relative % floor((A / B - 1) x 100) of the variants'
 * values, and a mark: Welch's t-test over the boots (never over repeats
 * within a boot, which share the boot's level), the marks of a table held
 * together at a KTABLE_FDR false-discovery rate (Benjamini-Hochberg over
 * every test in it).
 */
#ifndef DBSCALE_KTABLE_H
#define DBSCALE_KTABLE_H

#include <stddef.h>

#include "analysis/curves.h"
#include "analysis/kvariants.h"

#define KTABLE_FDR 0.05

/* What a table holds: database points, or kernel tests (micro.csv, fs.csv). */
enum ktable_kind { KTABLE_DB, KTABLE_KERNEL };

struct ktable_point {
    char k1[48], k2[64]; /* engine + workload; test + mode ("p", "t"; fs: its setup) */
    int cpus;            /* the CPUs held to; kernel tests: 0 when on every CPU the
                          * kernel had online (UP's one, SMP's all), as the
                          * reference table compares kernels at the same tasks */
    double x;            /* threads or tasks */
    /* Per variant: per boot (kvariants' index) the median of its repeats
     * here, NAN where that boot did not measure it; NULL where none did. */
    double *boot[KVARIANTS_MAX];
    size_t blen[KVARIANTS_MAX];  /* boot[v]'s length: the variant's boots when built */
    size_t nboot[KVARIANTS_MAX]; /* boots that measured it */
    size_t nrep[KVARIANTS_MAX];  /* repeats (rows) over those boots */
    double med[KVARIANTS_MAX];   /* median of the boots' values; NAN when not measured */
};

enum ktable_mark {
    KTABLE_NA,      /* not measured in both: no relative % */
    KTABLE_NO_TEST, /* fewer than 2 boots on a side: nothing can be proven */
    KTABLE_SAME,    /* tested: no difference proven at the FDR ("~") */
    KTABLE_DIFF,    /* tested: the difference holds at the FDR ("*") */
};

struct ktable_cell {
    enum ktable_mark mark;
    long long rel; /* floor((A / B - 1) x 100) when mark != NA */
    size_t na, nb; /* boots a side */
    double p, q;   /* Welch's p over the boots and its BH q; NAN untested */
};

struct ktable {
    enum ktable_kind kind;
    struct ktable_point *p; /* sorted by k1, k2, cpus, x */
    size_t n, cap;
    size_t nv;             /* variants */
    struct ktable_cell *c; /* n x pairs: row r, pair (i < j) at ktable_cell() */
    size_t tests, marked;  /* cells tested; of them marked "*" */
};

/* The table of one kind over kv's variants (their boots added to kv as met). */
void ktable_build(const struct curves *cv, struct kvariants *kv, enum ktable_kind kind,
                  struct ktable *t);
void ktable_free(struct ktable *t);
/* Row r's cell for variants i < j. */
const struct ktable_cell *ktable_cell(const struct ktable *t, size_t r, size_t i, size_t j);

#endif
