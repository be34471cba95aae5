/*
 * micro/fsbench.h - the file create/remove benchmark behind `dbscale fs`:
 * create N files in a directory, then remove them, timing each phase.
 */
#ifndef DBSCALE_MICRO_FSBENCH_H
#define DBSCALE_MICRO_FSBENCH_H

#include <stddef.h>

struct fs_config {
    const char *dir; /* where the scratch dir goes; NULL = $TMPDIR or /tmp */
    size_t size;     /* bytes written to each file */
    int fsync;       /* fsync each file before closing it */
    int tasks;       /* processes splitting the files between them */
    int shared_dir;  /* 1: all tasks in one directory; 0: one directory each */
    /* Test hook, called between the phases with the scratch dir. */
    void (*after_create)(const char *dir, int files, void *arg);
    void *hook_arg;
};

struct fs_result {
    int files, pass;
    double create_s, remove_s; /* measured wall time of each phase */
    char error[160];           /* empty = ok, else "call: strerror" */
};

/* One pass: a fresh scratch dir, N files made then removed, the dir removed.
 * 0 (check r->error), or -1 if SIGINT/SIGTERM arrived (tasks killed, scratch
 * removed). */
int fs_run_pass(const struct fs_config *c, int files, int pass, struct fs_result *r);

/* One fs.csv row for a pass (the file is results/benchcsv.c's: FSCSV_HEADER).
 * fs_rate: files per second, 0 for no time. */
struct sbuf;
void fs_csv_row(struct sbuf *b, const struct fs_config *c, const struct fs_result *r,
                const char *fs_type);
double fs_rate(int files, double s);

/* "00:01:02.345" for seconds s. */
void fs_hms(double s, char *buf, size_t len);

#endif
