/*
 * plan.h - what a study runs and in which order: axes (kernels, boot
 * parameters, server builds, server settings), their product as variants,
 * and runs interleaved by round (A B C, A B C ...), each run one variant's
 * command once, into its own results directory. Later rounds may be added
 * for the points a target interval has not been met at, each run then
 * restricted to those points.
 *
 * Pure: no I/O, no clock; the engine (engine.h) runs what is planned here.
 */
#ifndef DBSCALE_STUDY_PLAN_H
#define DBSCALE_STUDY_PLAN_H

#include <stddef.h>

#define STUDY_LABEL       32 /* a label: 1-31 of A-Za-z0-9._+- */
#define STUDY_NAME        72 /* a variant's name, its directory under OUT */
#define STUDY_AXES        4
#define STUDY_MAXVARIANTS 26 /* the page letters them A..Z */

/* One value of an axis: its label and the words it adds to the command
 * (--server-bin=DIR, --server-conf=LINE ...), or, for a guest's axes, the
 * backend's own index (a kernel, a boot variant). */
struct study_value {
    char label[STUDY_LABEL];
    char **words; /* owned by whoever filled the axis */
    int nwords;
    int index;
};

struct study_axis {
    char name[16]; /* "kernel", "boot", "build", "settings": as the record says */
    struct study_value *v;
    int n;
};

/* A variant: one value of every axis. */
struct study_variant {
    char name[STUDY_NAME]; /* the labels joined by '.', an unnamed axis left out */
    int value[STUDY_AXES]; /* per axis, the index of its value */
};

enum study_status { RUN_PENDING, RUN_OK, RUN_FAILED, RUN_STOPPED };

/* A run: a variant's command, once. A backend fills the outcome. */
struct study_run {
    int vi;                   /* its variant (an index into the plan's) */
    int kernel, boot;         /* the guest's kernel and boot variant indexes, -1 on the host */
    int repeat;               /* its round, from 0: runs of round r make a variant's repeat r+1 */
    char variant[STUDY_NAME]; /* the variant's name: its directory */
    char id[96];              /* VARIANT.rN (VARIANT.rN.M for a round's Mth run of it) */
    /* a run added for the points not yet within the target: --cpus and
     * --threads of those points only ("" for a planned run: all) */
    char only_cpus[64], only_threads[256];
    enum study_status status;
    char why[640];
    int exit_code;    /* the command's, -1 when it did not finish */
    char boot_id[40]; /* the kernel's boot_id where it ran (its rows' boot column) */
    double seconds, boot_s;
    int pinned;
    char started[32]; /* ISO 8601 UTC, "" before it ran */
    double t_start;   /* Unix seconds, 0 before it ran */
};

/* Is s (n bytes) a label a study may use as a name: 1-31 of A-Za-z0-9._+-,
 * not starting with '.' or '-'? */
int study_label_ok(const char *s, size_t n);

/* The product of axes[0..naxes) as variants, the last axis fastest; an
 * axis of one value whose label is empty adds nothing to the names. NULL
 * with err when a name would be too long or be one of OUT's own
 * directories (log, console), or the product has more than
 * STUDY_MAXVARIANTS variants or none; *n its count. */
struct study_variant *study_plan_variants(const struct study_axis *axes, int naxes, int *n,
                                          char *err, size_t errlen);

/* rounds x nv runs, interleaved: round 0's variants in order, then round
 * 1's ... ; kernel and boot from the axes named so (else -1). malloc'd. */
struct study_run *study_plan_rounds(const struct study_axis *axes, int naxes,
                                    const struct study_variant *v, int nv, int rounds, int *nruns);

/* A point of a variant not yet within the target, as the runs restrict
 * themselves to it. */
struct study_want {
    int vi;
    int cpus, threads;
};

/* The runs of one added round (round r, from 0) for want[0..nwant), in
 * variant order, appended to *runs (*nruns grows; *runs realloc'd): per
 * variant one run when its points are one product of CPU counts x thread
 * counts (the sweep's --cpus x --threads), else one run per CPU count.
 * Returns how many were added. */
int study_plan_more(const struct study_axis *axes, int naxes, const struct study_variant *v, int nv,
                    int r, const struct study_want *want, int nwant, struct study_run **runs,
                    int *nruns);

#endif
