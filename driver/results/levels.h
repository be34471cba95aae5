/*
 * levels.h - levels.csv, when each level of results.csv ran: its start as
 * wall-clock time and how long it took, so a study that interleaves its
 * variants can show that it did (start times alternate between variants)
 * and what the machine drifted meanwhile (a variant's repeats against the
 * clock). One owner: levels_write writes it whole and atomically (the
 * sweep rewrites it with each level, as results.csv, --append's earlier
 * rows first), levels_read reads it back by header names.
 *
 * Columns: variant,cpus,threads,repeat,boot as the level's row in
 * results.csv; started, Unix time in seconds (UTC, to the ms) when the
 * level began (its warmup included); seconds, its wall time.
 */
#ifndef DBSCALE_LEVELS_H
#define DBSCALE_LEVELS_H

#include <stddef.h>

#define LEVELS_HEADER "variant,cpus,threads,repeat,boot,started,seconds"

struct level_time {
    char variant[32];
    int cpus, threads, repeat;
    char boot[40];
    double started, seconds;
};

struct levels {
    struct level_time *rows;
    size_t n, cap;
};

void levels_add(struct levels *l, const struct level_time *r);
/* Write l to DIR/levels.csv atomically. 0, or -errno. */
int levels_write(const char *dir, const struct levels *l);
/* Read DIR/levels.csv (or the file), adding to l. 0, or -1 with err naming
 * the file and line. */
int levels_read(const char *path, struct levels *l, char *err, size_t errlen);
void levels_free(struct levels *l);

#endif
