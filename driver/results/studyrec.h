/*
 * studyrec.h - OUT/study.json read back: a study as its engine recorded it
 * (study/record.h writes it). The page reads which variant is which (each
 * axis's value and the words it added: a build's directory, a setting's
 * lines), the runs in the order they ran with their start times (the
 * interleaving), and the target's outcome with the points that never met
 * it; `dbscale report OUT` reads the variants' directories.
 *
 * Keys read (unknown ones ignored, so newer writers' files still load):
 *   verb, backend, started, ended, command[], rounds
 *   axes[]: name, values[]: label, words[]
 *   variant_values[]: name, values {AXIS: LABEL}
 *   variants[]: the variants' directory names, in study order
 *   runs[]: id, variant, repeat, only_cpus, only_threads, status, started,
 *           t_start, seconds, why, exit_code
 *   target: ci_pct, max_repeats, max_time_s, rounds_added, met, end,
 *           points, unmet[]: variant, label, cpus, threads, repeats,
 *           median, lo, hi, half_pct
 */
#ifndef DBSCALE_STUDYREC_H
#define DBSCALE_STUDYREC_H

#include <stddef.h>

#define STUDYREC_MAX 26 /* variants read, as the page letters them */

struct studyrec_variant {
    char name[72];
    char values[4][2][64]; /* per axis: its name, this variant's label */
    int nvalues;
    char words[512]; /* every word the variant's values add, space-joined */
};

struct studyrec_run {
    char id[96], variant[72];
    int repeat;
    char only_cpus[64], only_threads[256];
    char status[16], started[32], why[256];
    double t_start, seconds;
    int exit_code;
};

struct studyrec_point {
    char variant[72], label[32];
    int cpus, threads, repeats;
    double median, lo, hi, half_pct;
};

struct studyrec {
    char verb[16], backend[16], started[32], ended[32];
    int rounds;
    struct studyrec_variant *v;
    size_t nv;
    struct studyrec_run *runs;
    size_t nruns;
    int has_target; /* a target was set */
    double ci_pct, max_time_s;
    int max_repeats, rounds_added, met, points;
    char end[400];
    struct studyrec_point *unmet;
    size_t nunmet;
};

/* Read DIR/study.json. 1 read, 0 there is none, -1 unreadable or
 * malformed (err names the file). A variant whose name could name a path
 * outside DIR is an error, not skipped. Free with studyrec_free. */
int studyrec_read(const char *dir, struct studyrec *r, char *err, size_t errlen);
void studyrec_free(struct studyrec *r);

/* A study directory's variants' directories that hold results, in study
 * order, malloc'd (free with studyrec_free_dirs). 0 (also when dir has no
 * study.json: *n = 0), or -1 with err. */
int studyrec_variants(const char *dir, char ***dirs, size_t *n, char *err, size_t errlen);
void studyrec_free_dirs(char **dirs, size_t n);

/* The variant named name, or NULL. */
const struct studyrec_variant *studyrec_variant(const struct studyrec *r, const char *name);

#endif
