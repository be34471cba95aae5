/*
 * micro/micro.h - the kernel baseline: run syscall microbenchmarks and keep
 * the figures. `dbscale micro` is the command-line face; the sweep calls
 * micro_run_set() to run a baseline set at each CPU count of a sweep.
 *
 * DIR/micro.csv, one row per (test, mode, tasks) point, header first:
 *   test,mode,tasks,cpus,ops_per_s,min,max,cv,samples,fs_type,error,variant,idle
 * mode is p (processes) or t (threads); cpus is how many CPUs the tasks were
 * bound to; ops_per_s is the median of the per-sample rates (repeats pooled),
 * min/max the extreme samples, cv their coefficient of variation in percent;
 * samples the per-sample ops/s joined with ';' (for a Welch t-test); fs_type
 * the filesystem of the scratch directory (statfs); error is empty, or
 * "call: strerror" / "N/A: reason", and then the numeric fields are empty.
 * variant is the caller's label (empty when run standalone); idle the
 * machine's idle % over the sampled time (/proc/stat), as will-it-scale has it.
 */
#ifndef DBSCALE_MICRO_H
#define DBSCALE_MICRO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "results/benchcsv.h"
#include "micro/harness.h"
#include "core/util.h"

#define MICRO_CSV_HEADER MICROCSV_HEADER /* micro.csv is results/benchcsv.c's */

struct micro_config {
    const char *cpus; /* CPU ids "0-3,6"; NULL or "" = this process's allowed set */
    const char *dir;  /* where scratch dirs go; NULL = $TMPDIR or /tmp */
    double warmup;    /* seconds run before sampling */
    double interval;  /* seconds per sample */
    int samples;      /* samples per repeat */
    int repeats;      /* reruns of each point, samples pooled */
};

/* Defaults: warmup 0.2 s, 5 samples of 0.2 s, 1 repeat: ~1.3 s a point, so
 * all 53 tests x 2 modes x 2 task counts take about 5 minutes. */
void micro_config_default(struct micro_config *c);

struct micro_point {
    char test[32];
    char mode; /* 'p' or 't' */
    int tasks, cpus;
    double ops, min, max, cv; /* median ops/s, extreme samples, cv % */
    int nsamples;
    double *samples;     /* per-sample ops/s (malloc'd) */
    double elapsed_s;    /* measured time summed over samples */
    uint64_t iterations; /* work counted over the same samples */
    /* the machine's idle % over the sampled time (/proc/stat, repeats
     * pooled), as will-it-scale reports it beside each figure */
    double idle;
    unsigned long long idle_jiffies, total_jiffies;
    char fs_type[16];
    char error[MICRO_ERRLEN]; /* empty = ok */
};

/* Parse a CPU id list ("0-3,6"; NULL/"" = the allowed set) into a malloc'd
 * array of ids (*ids; free it), each one online. Returns the count, or -1
 * with a message naming --cpus in err. */
int micro_cpus(const char *list, int **ids, char *err, size_t errlen);
/* The CPU task number i runs on: the list's CPUs in turn. */
int micro_task_cpu(const int *ids, int n, int i);

/* Run one point. Returns 0 (check p->error for N/A), or -1 if interrupted
 * by SIGINT/SIGTERM (children are killed and reaped, scratch removed; the
 * signal is signals_caught()). Installs the signal room if nobody has. */
int micro_run_point(const struct micro_test *test, char mode, int tasks,
                    const struct micro_config *c, struct micro_point *p);
void micro_point_free(struct micro_point *p);

/* Scratch helpers, shared with fsbench: the directory scratch dirs go in
 * (dir, else $TMPDIR, else /tmp), its filesystem type by statfs ("ext4",
 * "tmpfs", ...), and rm -r of a scratch dir. */
const char *micro_scratch_base(const char *dir);
const char *micro_fs_type(const char *dir);
void micro_rmtree(const char *dir);
/* In a freshly forked child: die with the parent (PR_SET_PDEATHSIG), and
 * default dispositions for SIGINT/SIGTERM and the crash signals. 0 or -1. */
int micro_child_init(pid_t parent);

/* A run's points, from the command line's words and options. */
struct micro_plan {
    const struct micro_test *tests[128];
    int ntests;
    int tasks[64], ntasks;
    char modes[3];
    int ncpus;
};

/* Tests (words: names, comma lists or "all"; none = all), --cpus, --tasks
 * ("1,2,all" or "1-all:x2"), --mode (process|thread|both) into pl. 0, or -1
 * with the option at fault named in err. */
int micro_plan_make(struct micro_plan *pl, char **words, int nwords, const char *cpus,
                    const char *tasks, const char *mode, char *err, size_t errlen);

/* Called as each point is measured (first: the run's first point). */
typedef void (*micro_point_fn)(const struct micro_point *p, int first, void *arg);

/* Runs the plan, handing each point to on_point (NULL = none) and adding its
 * CSV row, labelled variant, to rows. Prints nothing. 0, or 128+signal when
 * interrupted (tasks killed, scratch removed; the signal room keeps it). */
int micro_plan_run(const struct micro_plan *pl, const struct micro_config *c,
                   micro_point_fn on_point, void *arg, const char *variant, struct sbuf *rows);

/* Append p as a CSV row to b (no header). */
void micro_csv_row(struct sbuf *b, const struct micro_point *p, const char *variant);
/* Append rows to dir/micro.csv atomically (creating it with the header).
 * 0, or -1 with a message in err. */
int micro_csv_append(const char *dir, const struct sbuf *rows, char *err, size_t errlen);

/*
 * Run tests_csv ("getppid1,open1"; NULL = all) at each task count of
 * tasks_list ("1,2,all") in mode (process|thread|both) on cpus_list, with the
 * default sampling, and append the rows, labelled variant_label, to
 * out_dir/micro.csv. 0, 1 runtime failure, 2 bad input (message in err).
 * Points that fail are N/A rows, not failures. On SIGINT/SIGTERM the tasks
 * are killed, the finished points still appended, and 128+signal returned;
 * the signal stays in the signal room (signals_caught) for the caller.
 */
int micro_run_set(const char *tests_csv, const char *cpus_list, const char *tasks_list,
                  const char *mode, const char *out_dir, const char *variant_label, char *err,
                  size_t errlen);

#endif
