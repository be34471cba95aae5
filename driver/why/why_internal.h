/*
 * why_internal.h - what the why room's files share; included only by
 * the why room's files (and the unit tests of its pure parts).
 *
 * why.c runs the level; why_proc.c reads /proc (the CPU split, the tasks);
 * why_pg.c and why_my.c are the engines' wait collectors behind one small
 * table; why_perf.c runs perf record and perf script; why_fold.c folds
 * perf script's text into stacks. Below them all, why_note.c says each
 * note once and why_result.c holds what they fill a level's result with.
 */
#ifndef DBSCALE_WHY_INTERNAL_H
#define DBSCALE_WHY_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "core/util.h"
#include "why/why.h"

/* ---- why_note.c: notes, each sentence said once ---- */
struct why_notes {
    json_t *list;       /* every sentence said, for meta.json */
    pthread_mutex_t mu; /* list is noted and read from more than one thread */
};
/* The notes of the collectors now open (one sweep at a time): while they
 * are, why_note says a sentence only once. */
void why_notes_open(struct why_notes *n);
void why_notes_close(struct why_notes *n);
/* One sentence for the user through cfg->note, printf-style, once. */
void why_note(const struct why_cfg *cfg, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- why_proc.c: /proc/stat per CPU, and the server's tasks ---- */
struct why_stat {
    int n;
    int *cpu;                           /* ids */
    unsigned long long (*t)[WHY_NCPUF]; /* jiffies per field */
};
/* The held CPUs' lines of /proc/stat (cpulist "0-1"). 0, or -1. */
int why_stat_read(struct why_stat *s, const char *cpulist);
/* Seconds per CPU and field between a and b into r->cpu. */
void why_stat_rows(const struct why_stat *a, const struct why_stat *b, struct why_result *r);
void why_stat_free(struct why_stat *s);
/* The same from two /proc/stat texts (unit tests). */
int why_stat_parse(struct why_stat *s, const char *text, const char *cpulist);

struct why_task {
    pid_t tid;
    unsigned long long vol, invol, migr, run_ns, wait_ns, utime, stime;
    /* /proc/PID/task/TID/sched (CONFIG_SCHED_DEBUG) and schedstat
     * (CONFIG_SCHEDSTATS) were there: without them migrations and run-queue
     * time are not measured, not 0 */
    int has_sched, has_schedstat;
};
struct why_tasks {
    struct why_task *t;
    size_t n, cap;
};
/* Every task of the processes pids. */
void why_tasks_read(struct why_tasks *ts, const pid_t *pids, int n);
/* b - a, task by task (a task new in b counts whole; one gone is lost).
 * Migrations and run/run-queue time are NAN when no task's file had them. */
void why_tasks_delta(const struct why_tasks *a, const struct why_tasks *b, struct why_sched *out);
void why_tasks_free(struct why_tasks *ts);

/* ---- the wait collectors (why_pg.c, why_my.c) ---- */
struct why_waits_ops {
    const char *engine;
    /* connect, check grants and what the server offers; NULL (a note said
     * why) when nothing can be read */
    void *(*open)(const struct why_cfg *cfg);
    void (*level)(void *w, int conns);
    void (*edge)(void *w, int begin); /* the timing thread */
    /* the window's rows (window_s long) into r->wait */
    void (*end)(void *w, double window_s, struct why_result *r);
    /* what is read: "pg_wait_sampling", ... */
    const char *(*method)(void *w);
    void (*close)(void *w);
};
extern const struct why_waits_ops why_pg_waits;
extern const struct why_waits_ops why_my_waits;

/* ---- why_result.c: what the collectors fill a level's result with ---- */
/* A small table of named counters (events), for the collectors. */
struct why_counts {
    char (*name)[96];
    double *v;
    int n, cap;
};
/* The slot of name (added at 0 when new). */
double *why_counts_at(struct why_counts *c, const char *name);
void why_counts_free(struct why_counts *c);

/* A wait row (source, event, class) appended to r. */
struct why_wait *why_add_wait(struct why_result *r, const char *source, const char *event,
                              const char *cls);

/* ---- why_perf.c ---- */
struct why_perf {
    pid_t pid;
    char dir[128], data[160], ctl[160], ack[160], log[160];
    int ctl_fd, ack_fd;
    int running;
};
/* Can perf record the server's processes? 0, or -1 with the fix in msg. */
int why_perf_probe(const pid_t *pids, int n, char *msg, size_t msglen);
/* perf record of pids, events off; returns once perf answers. 0 or -1 + err. */
int why_perf_start(struct why_perf *p, const pid_t *pids, int n, char *err, size_t errlen);
/* events on (1) or off (0): one write, never waits (the timing thread) */
void why_perf_enable(struct why_perf *p, int on);
/* Stop perf record, fold its samples into r (folded, prof.samples,
 * prof.kernel_samples, prof.perf_cpu_s). 0 or -1 + err. */
int why_perf_stop(struct why_perf *p, struct why_result *r, char *err, size_t errlen);

/* ---- why_fold.c: perf script text -> folded stacks ---- */
struct why_fold;
struct why_fold *why_fold_new(void);
/* One line of `perf script -F comm,tid,period,ip,sym,dso` output. */
void why_fold_line(struct why_fold *f, const char *line);
/* The stacks as "comm;outer;...;leaf count\n" lines, sorted; kernel frames
 * end in "_[k]". The sample counts into *samples, *kernel (leaf in the
 * kernel). A malloc'd string; f is freed. */
char *why_fold_done(struct why_fold *f, double *samples, double *kernel);

#endif
