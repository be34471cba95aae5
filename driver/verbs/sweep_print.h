/*
 * sweep_print.h - the sweep's terminal lines: the callbacks the run loop
 * calls (progress, baseline, collector notes) and the closing summary,
 * list of disturbed levels and report page. Everything goes to stderr
 * except the closing lines (stdout).
 */
#ifndef DBSCALE_SWEEP_PRINT_H
#define DBSCALE_SWEEP_PRINT_H

#include "sweep/sweep.h"

/* sweep.on_level: "[i/n] variant cpus=K threads=T repeat r/R: X tps (ETA)" */
void sweep_print_progress(const struct sweep *w, int i, const char *variant, double eta, void *arg);
/* sweep.on_baseline: the CPUs the kernel baseline runs on and its tests */
void sweep_print_baseline(const struct sweep *w, int k, void *arg);
/* sweep.on_note: a collector's sentence (a missing grant, perf not allowed) */
void sweep_print_why_note(const char *msg, void *arg);
/* after the summary: the disturbed levels among rows[0..n), at most 10 */
void sweep_print_disturbed(const struct result_row *rows, int n);
/* The sweep's end on stdout: the summary of this run's saved levels, the
 * disturbed ones, where the results are (meta_ok: meta.json written) and,
 * with --report, the page written. 0, or -1 when the page failed (said). */
int sweep_print_end(struct sweep *w, int saved, int meta_ok);

#endif
