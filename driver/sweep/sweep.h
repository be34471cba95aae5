/*
 * sweep.h - the scaling study's run loop: client threads x server CPU count x
 * repeats against one server, each level labelled with the variant that
 * produced it, results written after every level. The plan comes from plan.h;
 * the verb (verbs/sweep_verb.c) parses options, prints and picks exit codes.
 */
#ifndef DBSCALE_SWEEP_H
#define DBSCALE_SWEEP_H

#include <jansson.h>
#include <signal.h>
#include <sys/types.h>

#include "machine/cpuset.h"
#include "results/intervals.h"
#include "results/latcsv.h"
#include "results/levels.h"
#include "client/oltp.h"
#include "core/options.h"
#include "sweep/plan.h"
#include "results/results.h"
#include "servers/server.h"
#include "machine/sysinfo.h"
#include "why/why.h"

/* One rank's part of a level (dbscale-mpi), as sweep_share.reduce hands it
 * back on rank 0: its own figures become its row in results.csv. */
struct sweep_rank_fig {
    int rank, connections;
    char host[64];
    double window_start; /* its wall clock (s since the epoch) at its window's start */
    struct level_result res;
};

/* How a sweep shares its connections with other processes: dbscale-mpi
 * (ranks/mpi_sweep.c) fills it on rank 0, which alone plans, holds the
 * server, writes results and calls these; the other ranks follow inside
 * them. NULL for one process. */
struct sweep;
struct sweep_share {
    int nranks;
    void *arg;
    /* before rank 0 opens its pool: every rank opens its share of
     * maxthreads against rank 0's target; w->s.wcfg becomes rank 0's slice
     * (rate, seed, connection name, the window barrier). Rank 0's share in
     * *mine, or -1 with err when the plan cannot be split. */
    int (*open)(struct sweep *w, int maxthreads, int *mine, char *err, size_t errlen, void *arg);
    /* ok = rank 0's pool opened: 0 when every rank's did, else -1 with the
     * failing rank and host in err */
    int (*all_open)(int ok, char *err, size_t errlen, void *arg);
    /* a level of threads connections at the server starts on every rank
     * (a barrier); rank 0's share */
    int (*level)(int threads, void *arg);
    /* after the level: r becomes the reduction, each[0..nranks) the ranks'
     * parts (level_result_free each res), *skew_s the spread of the window
     * starts, iv (rank 0's periods) the periods summed over ranks; returns
     * the merged status */
    int (*reduce)(struct level_result *r, int status, struct sweep_rank_fig *each, double *skew_s,
                  struct intervals *iv, void *arg);
    /* the sweep is over (rc its exit code): the others stop following */
    void (*end)(int rc, void *arg);
    /* meta.json's keys about the ranks (ranks, hosts); a new object */
    json_t *(*meta)(void *arg);
};

/* The sweep's own settings, read once from its options when the verb sets
 * up (sweep_cfg_bind), so the levels hold typed fields and look nothing up
 * by name. The strings point into the options. */
struct sweep_cfg {
    const char *client_cpus; /* --client-cpus: a CPU list, same or rest; NULL = anywhere */
    const char *cpu_method;  /* --cpu-method: affinity | cpuset | hotplug */
    const char *variant;     /* --variant; NULL = up or smp-kN */
    const char *baseline;    /* --baseline: micro tests and fs, or NULL */
    const char *why;         /* --why: on | off */
    const char *waits;       /* --waits */
    const char *profile;     /* --profile: off | on | all | knee */
    long long wait_hz;       /* --wait-hz */
    double time_s, warmup_s; /* --time, --warmup-time */
};

struct sweep {
    struct opts o;
    struct sweep_cfg cfg; /* from o: sweep_cfg_bind */
    struct oltp_setup s;
    struct sysinfo_facts facts;
    struct server srv;
    int managed, server_up;
    pid_t ext_pid;
    struct sweep_plan plan;
    int *online; /* the online CPU ids the plan borrows (malloc'd, any count) */
    struct cpuset_ctl *cpu;
    int cpu_changed;
    struct pool *pool;
    struct result_row *rows;
    int nrows;                   /* levels measured */
    int nsaved;                  /* of those, the ones results.csv on disk holds */
    struct result_row *old_rows; /* --append: rows of the earlier runs, kept first */
    int nold, repeat_base;       /* their count; their highest repeat number */
    char out[1024];
    char started[32];
    char server_version[64];
    char settings[1024];
    /* the managed server's installation (--server-bin, else the default's
     * when it can be found): meta.json's server_build; daemon "" unknown */
    struct server_install inst;
    const char *workload;
    volatile sig_atomic_t *stop; /* nonzero once a stop signal came (signals_flag()) */
    /* server CPU and machine idle sampled at the measured window's edges
     * (worker_cfg.on_window), so they cover what TPS and client CPU cover */
    struct sweep_window {
        int begun, ended;
        double srv_cpu0, srv_cpu1;
        struct sysinfo_cpu_times t0, t1;
    } win;
    /* intervals.csv: every level's --report-interval periods (iv), and the
     * running level's, gathered by worker_cfg.on_interval (iv_level) */
    struct intervals iv, iv_level;
    /* latency.csv: every level's histogram buckets */
    struct latcsv lat;
    /* levels.csv: when every level ran (started, wall seconds) */
    struct levels lvl;
    /* after each finished level (row w->rows[w->nrows-1]), with the time
     * left estimated from measured level and baseline times; the verb prints */
    void (*on_level)(const struct sweep *w, int i, const char *variant, double eta_s, void *arg);
    void *on_level_arg;
    /* before the kernel baseline at CPU count k starts (it takes a while);
     * called with on_level_arg */
    void (*on_baseline)(const struct sweep *w, int k, void *arg);
    /* A workload that is no built-in mix (a Lua script): one level of
     * threads connections in place of the pool (NULL: the pool), its periods
     * handed to on_interval(st, cb_arg) and its window's edges (after any
     * warmup) to on_window(1 or 0, cb_arg), its client on the CPU list
     * client_cpus (NULL: anywhere). Returns as pool_run: 0, 1 when stopped,
     * -1 with out->fatal_msg. script: its path, for meta.json. */
    int (*run_level)(void *arg, int threads, const char *client_cpus,
                     void (*on_interval)(const struct interval_stats *st, void *a),
                     void (*on_window)(int begin, void *a), void *cb_arg, struct level_result *out);
    void *run_level_arg;
    char run_level_cpus[256]; /* the level's client CPUs, as the pool would get them */
    const char *script;
    /* dbscale-mpi: the sharing, the ranks' rows of results.csv and each
     * level's window start skew (NULL/0 for one process) */
    const struct sweep_share *share;
    struct result_row *rank_rows;
    int nrank_rows;
    double *skews;
    int nskews;
    /* the why collectors beside every level (sweep_why.c; NULL with
     * --why=off), their rows for the why files, and where their sentences
     * go (called with on_level_arg; the verb prints) */
    struct why *why;
    struct why_cfg whycfg;
    struct whycsv whyf;
    void (*on_note)(const char *msg, void *arg);
};

/* w->cfg from w->o (sweep_cfg.c): 0, or -1 with err (a binding the
 * table lacks: a bug). */
int sweep_cfg_bind(struct sweep *w, char *err, size_t errlen);

/* A timing thread's period as an intervals.csv row (the level's key, filled
 * in later, left empty): for the sweep and dbscale-mpi's followers. */
struct interval_row sweep_interval_row(const struct interval_stats *st);

/* Label for a level: "up" on a uniprocessor boot, "smp-kN" for N CPUs held,
 * or the user's --variant. */
void sweep_variant(char *buf, size_t len, const char *user_label, int up, int cpus);

/* "2026-01-31T12:00:00Z" */
void sweep_iso_now(char *buf, size_t len);

/* Start the throwaway server and point the connection options at it. */
int sweep_start_managed(struct sweep *w, char *err, size_t errlen);

/* Open the connections for the largest level, with the window hooks set. */
int sweep_open_pool(struct sweep *w, char *err, size_t errlen);

/* Version and the few settings that decide what a figure means, for meta.json. */
void sweep_read_settings(struct sweep *w);

/* The sweep's options as they go into meta.json: the one function to redact
 * in. A new object (the caller owns it). */
json_t *sweep_meta_options(const struct opts *o);

/* meta.json, atomically; ended NULL while running. 0 or -errno. */
int sweep_write_meta(struct sweep *w, const char *ended);

/* Every level of the plan, results.csv rewritten after each. 0, or -1 with
 * the reason in err (finished levels stay in w->rows and on disk). */
int sweep_run(struct sweep *w, char *err, size_t errlen);

/* Put the server's CPUs back as they were. */
void sweep_restore_cpus(struct sweep *w);

/* dbscale-mpi (sweep_ranks.c): one level over the ranks: rank 0's share run
 * here, reduced with the others' (*each: their parts, sweep_ranks_free);
 * the level's window start skew kept in w->skews. The merged status. */
int sweep_ranks_level(struct sweep *w, int threads, struct level_result *res,
                      struct sweep_rank_fig **each);
void sweep_ranks_free(const struct sweep *w, struct sweep_rank_fig *each);
/* meta.json's keys about the ranks: ranks, hosts, start skews. A new object. */
json_t *sweep_ranks_meta(const struct sweep *w);

/* sweep_row.c: the row of a measured level (server CPU seconds and idle %
 * over its window; the CPU lists it ran on), and under dbscale-mpi each
 * rank's part of it appended to w->rank_rows */
void sweep_fill_row(struct sweep *w, struct result_row *r, const struct sweep_level *lv,
                    const char *variant, const struct level_result *res, double srv_cpu,
                    double idle, const char *srv_list, const char *cli_list, int shared);
void sweep_add_rank_rows(struct sweep *w, const struct sweep_level *lv, const char *variant,
                         struct sweep_rank_fig *each, const char *srv_list, const char *cli_list,
                         int shared);

/* sweep_server.c: the server's processes now (the managed one's, or the
 * external one's family when its pid is known): count written. */
int sweep_server_family(struct sweep *w, pid_t *pids, int max);
/* meta.json's record of which server measured: server_build (the managed
 * installation: dir, daemon, sha256, version) and server_conf (the
 * --server-conf lines), set into the object meta. */
void sweep_server_meta(const struct sweep *w, json_t *meta);
/* --append into w->out: 0 when its meta.json is of the same server (or
 * says nothing of it), else -1 with err naming what differs (another
 * build, other --server-conf lines). Only reads. */
int sweep_server_same(const struct sweep *w, char *err, size_t errlen);

/* sweep_level.c: one level of threads connections, however this sweep runs
 * one: over MPI ranks (each: their parts, sweep_ranks_free), a script's
 * level, or the pool. As pool_run: 0, 1 when stopped, -1 with
 * res->fatal_msg. */
int sweep_run_one(struct sweep *w, int threads, struct level_result *res,
                  struct sweep_rank_fig **each);
/* The server held to the first k online CPUs (its list into srv_list) and
 * read back, the client placed (its list into cli_list, *shared 1 when it
 * shares the server's CPUs). 0, or -1 with err. sweep_hold: the same,
 * without handing the client's list back (--profile=knee's levels). */
int sweep_hold_server(struct sweep *w, int k, char *srv_list, size_t sl, char *cli_list, size_t cl,
                      int *shared, char *err, size_t errlen);
int sweep_hold(struct sweep *w, int k, char *srv_list, size_t sl, char *err, size_t errlen);
/* The timing thread's periods of the running level forgotten (before a
 * level: an interrupted one's are no measurement); the finished level's
 * (keyed by r) added to intervals.csv, rewritten whole (0 or -errno). */
void sweep_periods_clear(struct sweep *w);
int sweep_keep_intervals(struct sweep *w, const struct result_row *r);

/* sweep_why.c: the collectors, opened before the levels, told each level's
 * start (its server CPUs and connections) and window edges, ended after it
 * (their own CPU taken off res's client CPU), their rows kept after the
 * level's results.csv row (0 or -errno), or under a key and role of their
 * own (sweep_why_keep_key, --profile=knee's levels); meta.json's "why"
 * (NULL when off); the managed server's extra config lines; a sentence for
 * the user (arg: the sweep); --profile's mode (0 none, 1 every level, 2
 * around the knee). */
void sweep_why_open(struct sweep *w);
void sweep_why_begin(struct sweep *w, const char *srv_list, int threads, int profile);
void sweep_why_window(struct sweep *w, int begin);
void sweep_why_end(struct sweep *w, struct level_result *res, struct why_result *r);
int sweep_why_keep(struct sweep *w, const struct result_row *row, const struct level_result *res,
                   struct why_result *r);
int sweep_why_keep_key(struct sweep *w, const struct why_key *k, double txns, double time_s,
                       double srv_cpu, const char *role, struct why_result *r);
json_t *sweep_why_meta(const struct sweep *w);
const char *sweep_why_server_conf(const struct sweep *w);
void sweep_why_close(struct sweep *w);
void sweep_why_note(const char *msg, void *arg);
int sweep_why_profile_mode(const struct sweep *w);

/* sweep_knee.c: --profile=knee's extra levels after the plan, profiled,
 * their rows kept. 0, or -1 with err. */
int sweep_knee_run(struct sweep *w, char *err, size_t errlen);

#endif
