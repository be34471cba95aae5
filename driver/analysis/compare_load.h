/*
 * compare_load.h - inputs of `dbscale compare` read into sets of keyed
 * points: results dirs, results or micro CSVs, wide TSVs like the
 * will-it-scale reference. plot reuses it for the kernel baseline
 * (micro.csv).
 */
#ifndef DBSCALE_COMPARE_LOAD_H
#define DBSCALE_COMPARE_LOAD_H

#include <stddef.h>

enum compare_kind { COMPARE_RESULTS, COMPARE_MICRO, COMPARE_NKINDS };

/* Key fields: results engine,workload,variant,cpus,threads;
 * micro test,mode,tasks,cpus,variant. */
#define COMPARE_NF 5

struct compare_point {
    char f[COMPARE_NF][48];
    double *v; /* samples: tps per repeat, or ops/s per micro sample */
    size_t n, cap;
    /* One value per independent run (a results.csv repeat, a micro.csv row,
     * a TSV cell): the unit of replication a test may treat as independent,
     * which samples inside one run are not. */
    double *rep;
    size_t nrep, repcap;
};

struct compare_set {
    char name[64];
    char path[512]; /* what it was read from */
    enum compare_kind kind;
    struct compare_point *pts;
    size_t n;
};

struct compare_sets {
    struct compare_set *s;
    size_t n;
};

/* Load one argument, appending to ss: a results dir gives a set from
 * results.csv and one from micro.csv when present; FILE.csv one set; FILE.tsv
 * one set per raw column. 0, or -1 with a message naming file and line. */
int compare_load(struct compare_sets *ss, const char *arg, char *err, size_t errlen);
/* Make set names unique among sets of a kind ("a/results", not two "results"). */
void compare_name_sets(struct compare_sets *ss);
void compare_sets_free(struct compare_sets *ss);

#endif
