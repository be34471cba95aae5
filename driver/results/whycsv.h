/*
 * whycsv.h - the "why" files of a results directory: what the server did at
 * each level, one file per kind, each row keyed as results.csv's rows are
 * (variant, cpus, threads, repeat). One owner: whycsv_write writes them
 * whole and atomically (the sweep rewrites them after every level, as
 * results.csv), whycsv_read reads them back by header names. Every column
 * is described in whycsv_meta(), which the sweep puts into meta.json. A
 * figure that was not measured (a level that completed nothing, a /proc
 * file the kernel does not have) is NAN in memory and an empty cell on
 * disk, never 0.
 *
 *   cpusplit.csv  per level and held CPU (/proc/stat): seconds of user (with
 *                 nice), system, irq, softirq, iowait, steal, idle over the
 *                 window, and each in microseconds per transaction
 *   sched.csv     per level: the server's tasks, their user and kernel CPU,
 *                 voluntary and involuntary context switches and migrations
 *                 (per transaction too), run and run-queue wait time
 *   waits.csv     per level and wait event: where the server's connections
 *                 spent their time (PostgreSQL: pg_wait_sampling or samples of
 *                 pg_stat_activity, "CPU" for none; MariaDB:
 *                 performance_schema summaries and InnoDB's row-lock counters),
 *                 with a class (cpu, lock, io, client, table, other)
 *   profile.csv   per profiled level (--profile): perf's samples, the share
 *                 in the kernel, the level's transactions and server CPU, and
 *                 the folded stacks' file (profiles/NAME.folded)
 *
 * repeat 0 in waits/cpusplit/sched/profile marks an extra profiled run of
 * --profile=knee, which results.csv does not hold (its figures are in
 * profile.csv). Never prints; knows no plan: rows come keyed.
 */
#ifndef DBSCALE_WHYCSV_H
#define DBSCALE_WHYCSV_H

#include <jansson.h>
#include <stddef.h>

struct why_key {
    char variant[32];
    int cpus, threads, repeat;
};

/* /proc/stat's fields, in the files' order */
enum { WHY_USER, WHY_SYSTEM, WHY_IRQ, WHY_SOFTIRQ, WHY_IOWAIT, WHY_STEAL, WHY_IDLE, WHY_NCPUF };
extern const char *const why_cpu_field[WHY_NCPUF]; /* "user", "system", ... */

struct why_cpu {
    struct why_key k;
    int cpu;                  /* the CPU's id */
    double s[WHY_NCPUF];      /* seconds over the window */
    double us_txn[WHY_NCPUF]; /* microseconds per transaction */
};

struct why_sched {
    struct why_key k;
    int tasks;                     /* the server's tasks (threads) seen at the window's end */
    double voluntary, involuntary; /* context switches over the window */
    double migrations;             /* moves between CPUs */
    double user_s, system_s;       /* the tasks' user and kernel CPU (utime, stime) */
    double run_s, runq_s;          /* on a CPU; runnable but waiting for one */
    double voluntary_txn, involuntary_txn, migrations_txn; /* per transaction */
    double user_us_txn, system_us_txn, run_us_txn, runq_us_txn;
};

struct why_wait {
    struct why_key k;
    char source[24]; /* pg_wait_sampling, pg_stat_activity, performance_schema, innodb */
    char event[96];  /* "Lock:transactionid", "CPU", "wait/synch/mutex/innodb/..." */
    char cls[8];     /* cpu, lock, io, client, other */
    double count;    /* samples, or the events counted */
    double wait_s;   /* connection-seconds spent in it over the window */
    double share;    /* of all connections' time (0..1) */
    double us_txn;   /* wait_s per transaction, microseconds */
    double sampler_hz, sampler_cpu_s; /* the level's sampler: rate reached, its CPU (0 if none) */
};

struct why_prof {
    struct why_key k;
    char role[16]; /* "level" (--profile), "knee", "before-knee", "peak" (=knee) */
    double samples, kernel_samples;
    double txns, time_s, server_cpu_s; /* of the profiled run */
    double perf_cpu_s;                 /* perf record's own CPU */
    char folded[160];                  /* "profiles/NAME.folded", relative to the directory */
};

struct whycsv {
    struct why_cpu *cpu;
    size_t ncpu, capcpu;
    struct why_sched *sched;
    size_t nsched, capsched;
    struct why_wait *wait;
    size_t nwait, capwait;
    struct why_prof *prof;
    size_t nprof, capprof;
};

void whycsv_add_cpu(struct whycsv *w, const struct why_cpu *r);
void whycsv_add_sched(struct whycsv *w, const struct why_sched *r);
void whycsv_add_wait(struct whycsv *w, const struct why_wait *r);
void whycsv_add_prof(struct whycsv *w, const struct why_prof *r);

/* The files that hold rows, written atomically into dir. 0 or -errno. */
int whycsv_write(const char *dir, const struct whycsv *w);
/* Whatever of the four files dir holds, added to w (a missing file is no
 * error). 0, or -1 with "FILE:LINE: why" in err. */
int whycsv_read(const char *dir, struct whycsv *w, char *err, size_t errlen);
void whycsv_free(struct whycsv *w);

/* {"cpusplit.csv": {"column": "what it is", ...}, ...}: a new object */
json_t *whycsv_meta(void);

/* "smp-k2-c2-t8-r1": a level's name for files (profiles/NAME.folded); any
 * character of the variant outside [A-Za-z0-9._+-] becomes '_' */
void whycsv_level_name(char *buf, size_t len, const struct why_key *k);

#endif
