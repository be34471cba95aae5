/*
 * lreport.h - a script's report hooks (sysbench.hooks.report_intermediate
 * and report_cumulative) fed from lscript_run's figures: each period's
 * interval_stats and the run's level_result, turned into sysbench's stat
 * table and handed to the hook in a reporting state of the script's own,
 * as sysbench's reporting thread does (lreport.c).
 */
#ifndef DBSCALE_LREPORT_H
#define DBSCALE_LREPORT_H

#include <lua.h>

#include "lua/lapi.h"
#include "client/worker.h"

struct lreport {
    lua_State *L; /* NULL when the script defines neither hook */
    struct lapi_thread t;
    int intermediate, cumulative; /* which hooks the script defines */
    int failed;                   /* a hook raised an error: err holds the first */
    double time_s;                /* the run's --time (0 = none) */
    char err[700];
};

/* Load s once more for its hooks. 0 (r->L NULL when there are none), or
 * -1 with err naming the script and line. time_s: the run's --time. Every
 * period reaches the hook, the one that ends at --time too, as sysbench's
 * reporter calls it (for --time=2 --report-interval=1: twice). */
int lreport_open(struct lreport *r, const struct lapi_script *s, double time_s, char *err,
                 size_t errlen);
/* Call report_intermediate with one period's figures (an on_interval of
 * window_reports; arg is the struct lreport). */
void lreport_interval(const struct interval_stats *st, void *arg);
/* Close the periods' state and call report_cumulative with the run's
 * figures in a fresh one; pct is --percentile. 0, or -1 with r->err. */
int lreport_cumulative(struct lreport *r, const struct level_result *res, double pct);
/* Close the reporting state (sysbench.report_json's closing bracket comes
 * then, as sysbench's does when its reporting thread ends). */
void lreport_close(struct lreport *r);

#endif
