/*
 * plan.h - the sweep's plan: which CPU counts, which thread levels at each,
 * how many repeats, in which order. Pure: no I/O, no printing; the caller
 * hands in the online CPUs and the option strings.
 */
#ifndef DBSCALE_PLAN_H
#define DBSCALE_PLAN_H

#include <stddef.h>

#define SWEEP_MAX_LEVELS_T 64

struct sweep_level {
    int k; /* index into the CPU-count list */
    int threads;
    int repeat; /* 1-based */
};

/* No CPU ceiling: the arrays below are sized from the --cpus list and the
 * machine's online CPUs (which the caller reads through cpulist.h). */
struct sweep_plan {
    const int *online; /* input: the online CPU ids, ascending (the caller's) */
    int nonline;
    int *kcpus, nk;                           /* CPU counts, as given */
    long long (*threads)[SWEEP_MAX_LEVELS_T]; /* per CPU count ("4k" = 4 x k) */
    int *nthreads, repeats;
    long long maxthreads;
    long long *skipped; /* --cpus values above the online count, dropped */
    int nskipped;
    struct sweep_level *levels; /* in run order */
    int nlevels;
};

/* Expand "Nk" tokens (N times the CPU count k) in a thread list. */
void sweep_plan_expand_k(const char *in, int k, char *out, size_t len);

/* Build the plan from --threads, --cpus, --order (sequential|interleaved) and
 * --repeats, given p->online / p->nonline set by the caller (kept, not
 * copied or freed). 0, or -1 with a message in err. Free with sweep_plan_free. */
int sweep_plan_build(struct sweep_plan *p, const char *threads, const char *cpus, const char *order,
                     int repeats, char *err, size_t errlen);

void sweep_plan_free(struct sweep_plan *p);

/* Seconds left before levels[next..] are done, from measured times only:
 * level_s per level (the mean of those measured so far) plus baseline_s for
 * each CPU count still to get its kernel baseline (baseline_done[k] 0). */
double sweep_plan_eta(const struct sweep_plan *p, int next, double level_s, double baseline_s,
                      const int *baseline_done);

/* A --variant label names a curve in results.csv, plot and compare: 1 to 31
 * characters from A-Z a-z 0-9 and . _ - + = : (no spaces, commas, quotes or
 * line ends, which would split or merge curves). 0, or -1 with the rule in err. */
int sweep_plan_check_variant(const char *label, char *err, size_t errlen);

#endif
