/*
 * benchcsv.h - the kernel baseline's files in a results directory: micro.csv
 * (syscall microbenchmarks, one row per test x mode x tasks) and fs.csv (file
 * create/remove, one row per files x pass). One owner for each: a column
 * table drives the writer and the reader, fields are CSV-quoted (RFC 4180),
 * never mangled.
 *
 * micro.csv: test,mode,tasks,cpus,ops_per_s,min,max,cv,samples,fs_type,error,
 *            variant,idle,boot   (numbers empty when error is set; samples
 *            "a;b;c"; idle the machine's idle % over the sampled time; files
 *            from before idle read, its value 0)
 * fs.csv:    files,pass,tasks,cpus,create_s,create_files_per_s,remove_s,
 *            remove_files_per_s,error,shared_dir,size,fsync,fs_type,variant,
 *            boot   (timings empty when error is set; cpus 0 = not held to CPUs)
 * boot, in both, is the kernel's boot_id the row was measured in
 * (kernelinfo.h), "" in files from before the column. Adding rows to a file
 * from before a column rewrites its rows with that column empty.
 */
#ifndef DBSCALE_BENCHCSV_H
#define DBSCALE_BENCHCSV_H

#include <stddef.h>

#include "core/util.h"

#define MICROCSV_HEADER                                                                            \
    "test,mode,tasks,cpus,ops_per_s,min,max,cv,samples,fs_type,error,variant,idle,boot"
#define FSCSV_HEADER                                                                               \
    "files,pass,tasks,cpus,create_s,create_files_per_s,remove_s,remove_files_per_s,error,"         \
    "shared_dir,size,fsync,fs_type,variant,boot"

struct microcsv_row {
    char test[32];
    char mode[2]; /* "p" or "t" */
    int tasks, cpus;
    double ops, min, max, cv;
    char samples[1024];
    char fs_type[16];
    char error[256]; /* empty = ok; else the numbers are empty */
    char variant[32];
    double idle;   /* % of the machine idle while sampling */
    char boot[40]; /* the kernel's boot_id it was measured in */
};

struct fscsv_row {
    int files, pass, tasks, cpus;
    double create_s, create_per_s, remove_s, remove_per_s;
    char error[256]; /* empty = ok; else the timings are empty */
    int shared_dir;
    long long size;
    int fsync;
    char fs_type[16];
    char variant[32];
    char boot[40]; /* the kernel's boot_id it was measured in */
};

/* One row, newline-terminated, appended to b; a row with no boot gets this
 * boot's (kernelinfo_boot_id): rows are formatted as they are measured. */
void microcsv_format(struct sbuf *b, const struct microcsv_row *r);
void fscsv_format(struct sbuf *b, const struct fscsv_row *r);

/* Add formatted rows to DIR/micro.csv or DIR/fs.csv: the file is made with its
 * header if new, refused if its header differs, and rewritten whole
 * atomically. 0, or -1 with err naming the file. */
int microcsv_append(const char *dir, const struct sbuf *rows, char *err, size_t errlen);
int fscsv_append(const char *dir, const struct sbuf *rows, char *err, size_t errlen);

/* Read a micro.csv / fs.csv (DIR or the file) by header names. 0, or -1 with
 * err naming the file and line. Free *rows with free(). */
int microcsv_read(const char *path, struct microcsv_row **rows, size_t *n, char *err,
                  size_t errlen);
int fscsv_read(const char *path, struct fscsv_row **rows, size_t *n, char *err, size_t errlen);

#endif
