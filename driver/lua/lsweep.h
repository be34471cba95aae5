/*
 * lsweep.h - a Lua script as a sweep's workload (lsweep.c): which script the
 * command line names, its prepare, and one level run through lscript_run.
 */
#ifndef DBSCALE_LSWEEP_H
#define DBSCALE_LSWEEP_H

#include <stddef.h>

#include "results/intervals.h"
#include "lua/lerrors.h"
#include "lua/lscript.h"

struct lsweep {
    struct lapi_script ls; /* filled by lsetup_fill; threads set per level */
    /* the level's settings (oltp_setup.wcfg, as a built-in level's):
     * a level adds its callbacks and client CPUs */
    struct worker_cfg cfg;
    struct lerrors errors; /* lsweep_init / lsweep_free */
};

void lsweep_init(struct lsweep *x);
void lsweep_free(struct lsweep *x);

/* The script a sweep's argv[0..argc) names as its workload: the first
 * positional word that is one (lua_verb's rules, --lua-path included), else
 * --workload's value, else workload= in the --config file, when that is a
 * .lua or a NAME found as one and no built-in name. Into path: 1, or 0. */
int lsweep_find_workload(int argc, char **argv, char *path, size_t len);

/* The script's own prepare, run once with one thread. 0, 1 when the script
 * has none, -1 with err naming the script and line. */
int lsweep_prepare(struct lsweep *x, char *err, size_t errlen);

/* A level of threads connections (sweep.run_level's shape; arg is a struct
 * lsweep): x->cfg's settings, the script's threads on client_cpus (NULL:
 * anywhere). */
int lsweep_level(void *arg, int threads, const char *client_cpus,
                 void (*on_interval)(const struct interval_stats *st, void *a),
                 void (*on_window)(int begin, void *a), void *cb_arg, struct level_result *out);

#endif
