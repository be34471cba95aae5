/*
 * resdir.h - the results directory itself: made new for each sweep (never
 * reused by accident), or, asked for explicitly, a run added beside the ones
 * already there.
 */
#ifndef DBSCALE_RESDIR_H
#define DBSCALE_RESDIR_H

#include <stddef.h>

/* Make the results directory. path non-NULL: its parents are created and
 * it must be new or empty, unless append (then an existing one is used as
 * it is). path NULL: default_base ("results/pgsql-oltp_read_only-20260101-
 * 120000") is made with mkdir, and if that name is taken, BASE-2, BASE-3...
 * so two sweeps never share one. The name used goes to out.
 * 0; -2 refused (path not empty, no append: err says so); -1 cannot create
 * (err names the directory and the reason). */
int results_dir_create(const char *path, const char *default_base, int append, char *out,
                       size_t outlen, char *err, size_t errlen);

/* Lock the results directory for this process (flock on the directory,
 * released when the process ends): two sweeps appending to one directory
 * would each rewrite results.csv from what they read and lose the other's
 * levels. 0 locked; 1 another process holds it (wait 0); with wait, polls
 * until it is free (a stop signal ends the process meanwhile, nothing
 * started). -1 with err. */
int results_dir_lock(const char *dir, int wait, char *err, size_t errlen);

/* Before an appended run writes its own meta.json: the previous run's is
 * moved to meta.N.json (the first free N, never over a file). 0 (also when
 * there is none), or -1 with err. */
int results_dir_keep_meta(const char *dir, char *err, size_t errlen);

#endif
