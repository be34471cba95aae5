/*
 * why.h - the collectors that run beside a level over its exact window and
 * say where the server's time went: its CPUs' split (/proc/stat), its tasks'
 * context switches and migrations (/proc/PID/task), the wait events of its
 * connections (PostgreSQL: pg_wait_sampling, else pg_stat_activity sampled
 * from a side connection; MariaDB: performance_schema and InnoDB's
 * counters) and, when asked, a perf profile (cpu-clock, call graphs) folded
 * into stacks.
 *
 * They know no plan: the sweep says when a level begins (why_level_begin),
 * where its window's edges are (why_window, from the timing thread) and
 * takes the level's rows, unkeyed, at its end (why_level_end); it keys them
 * and keeps them in the why files (whycsv.h). They never print: what the
 * user must know (a missing grant, perf not permitted, a sampler that could
 * not keep up) goes to cfg.note as one sentence naming the fix, and the
 * sweep goes on without what could not be collected.
 */
#ifndef DBSCALE_WHY_H
#define DBSCALE_WHY_H

#include <jansson.h>
#include <sys/types.h>

#include "engines/db.h"
#include "results/whycsv.h"

struct why_cfg {
    const char *engine;             /* db_ops name: "pgsql" or "mysql" */
    const struct db_target *target; /* where the side connection goes (the workload's) */
    const char *waits; /* auto | off | pg_wait_sampling | pg_stat_activity | performance_schema */
    int hz;            /* the pg_stat_activity sampler's rate */
    int profile;       /* 1: levels may be profiled (perf is checked at open) */
    int local;         /* 1: the server runs on this host (pids gives its processes) */
    int (*pids)(pid_t *out, int max, void *arg); /* the server's processes now */
    void *pids_arg;
    void (*note)(const char *msg, void *arg); /* one sentence for the user */
    void *note_arg;
};

/* A level's figures over its window, not yet keyed. */
struct why_result {
    struct why_cpu *cpu; /* per held CPU (seconds filled, us_txn 0) */
    int ncpu;
    struct why_sched sched;
    int has_sched;
    struct why_wait *wait; /* wait_s, count, share filled */
    int nwait;
    int profiled;
    struct why_prof prof;         /* samples, kernel_samples, perf_cpu_s */
    char *folded;                 /* the folded stacks, malloc'd text */
    double own_user_s, own_sys_s; /* the collectors' CPU in this process over the window */
};

struct why;

/* Never NULL: what cannot be collected is said through cfg->note and left
 * out. The strings of cfg must outlive the collectors. */
struct why *why_open(const struct why_cfg *cfg);
/* Before a level runs: its server CPUs (a CPU list, "" for none known), its
 * connections, and whether to profile it (started now, disabled until the
 * window opens). */
void why_level_begin(struct why *y, const char *cpulist, int conns, int profile);
/* The window's edges, from the timing thread (begin 1, then 0). */
void why_window(struct why *y, int begin);
/* After the level: its figures (empty when the window never closed). */
void why_level_end(struct why *y, struct why_result *r);
void why_result_free(struct why_result *r);
void why_close(struct why *y);

/* 1 when perf profiles can be taken. */
int why_can_profile(const struct why *y);
/* What was collected and how, for meta.json: a new object. */
json_t *why_meta(const struct why *y);

/* Config lines a managed server gets so the collectors find what they read
 * (pg_wait_sampling preloaded; with waits "performance_schema",
 * MariaDB's performance_schema and its wait instruments), or "" when none
 * are needed. waits: --waits (NULL = auto). */
const char *why_server_conf(const char *engine, const char *waits);

/* A level's "why" option values: 0, or -1 with err naming the bad one. */
int why_check_waits(const char *engine, const char *waits, char *err, size_t errlen);

#endif
