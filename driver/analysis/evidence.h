/*
 * evidence.h - what the results directories say about why, read once for
 * every verdict: each directory's why files and their points, its profiles'
 * kernel shares, its kernel baseline (micro.csv), the client's CPU use and
 * the offered load (--rate); and from them the input of limit.h for any
 * curve.
 */
#ifndef DBSCALE_EVIDENCE_H
#define DBSCALE_EVIDENCE_H

#include <stddef.h>

#include "analysis/compare_load.h"
#include "analysis/curves.h"
#include "analysis/limit.h"
#include "analysis/whypoint.h"
#include "results/whycsv.h"

struct evidence_dir {
    struct whycsv w;      /* the why files (empty when none) */
    struct whypoint *pts; /* their points */
    size_t np;
    double rate;               /* --rate of the sweep, 0 when none */
    struct compare_sets micro; /* its micro.csv's points (none when it has none) */
};

struct evidence {
    struct evidence_dir *d; /* one per curves dir */
    size_t n;
};

/* The why files of every directory of cv. An unreadable one is left out
 * with a warning in cv->log->warn (the verdict then says not measured). */
void evidence_load(struct evidence *ev, const struct curves *cv);
void evidence_free(struct evidence *ev);
/* The why point of curve ci at threads, or NULL. */
const struct whypoint *evidence_point(const struct evidence *ev, const struct curves *cv, size_t ci,
                                      double threads);
/* limit.h's input for curve ci. */
void evidence_curve(const struct evidence *ev, const struct curves *cv, size_t ci,
                    struct limit_curve *lc);
/* The kernel baseline's tests that exercise what grew from a to b: lock
 * waits (futexes), I/O waits (fs), and the kernel functions named in kfn
 * (a profile's), each once, into out. Count. */
/* Whether kernel series mc is test's ("fs" names both fs.csv operations)
 * at cpus, with two points or more to scale over. */
int evidence_series_is(const struct curve_kernel *mc, const char *test, int cpus);
int evidence_kernel_tests(const struct whypoint *a, const struct whypoint *b, char (*kfn)[128],
                          int nk, char (*out)[32], int max);

#endif
