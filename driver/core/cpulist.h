/*
 * cpulist.h - the one CPU-set type of dbscale, and its one parser.
 *
 * A set is sized from the machine (sysfs devices/system/cpu/possible), not
 * from a compile-time ceiling: a 448-CPU server is as at home as a 2-CPU VM.
 * The set is a CPU_ALLOC'd cpu_set_t with its byte size beside it, so it goes
 * straight to sched_setaffinity and the CPU_*_S macros.
 *
 * Where sysfs is can be changed (cpulist_set_sysfs, or $DBSCALE_SYSFS_ROOT),
 * so tests can describe machines of any size with a fake tree.
 */
#ifndef DBSCALE_CPULIST_H
#define DBSCALE_CPULIST_H

#include <sched.h>
#include <stddef.h>

struct cpulist {
    cpu_set_t *set; /* CPU_ALLOC(ncpus) */
    size_t size;    /* CPU_ALLOC_SIZE(ncpus): the size for CPU_*_S and sched_*affinity */
    int ncpus;      /* ids 0..ncpus-1 fit (at least the machine's possible CPUs) */
};

/* The sysfs root ("/sys" unless $DBSCALE_SYSFS_ROOT or a setter says
 * otherwise). NULL restores the default. Forgets the cached CPU count. */
void cpulist_set_sysfs(const char *root);
/* root + "/devices/system/cpu/" + name, e.g. "online", "cpu3/online". */
void cpulist_sysfs_path(char *buf, size_t len, const char *name);

/* Highest possible CPU id + 1, from sysfs (cached; sysconf as a fallback). */
int cpulist_possible(void);

/* An empty set sized for the machine. 0, or -1 when out of memory. */
int cpulist_init(struct cpulist *l);
void cpulist_free(struct cpulist *l);
int cpulist_ncpus(const struct cpulist *l);
void cpulist_clear(struct cpulist *l);
/* 0, or -1 when cpu is not an id this machine can have. */
int cpulist_add(struct cpulist *l, int cpu);
void cpulist_del(struct cpulist *l, int cpu);
int cpulist_has(const struct cpulist *l, int cpu);
int cpulist_count(const struct cpulist *l);
int cpulist_equal(const struct cpulist *a, const struct cpulist *b);
/* dst = a & b; dst = src (all three sized alike by cpulist_init). */
void cpulist_and(struct cpulist *dst, const struct cpulist *a, const struct cpulist *b);
void cpulist_copy(struct cpulist *dst, const struct cpulist *src);
/* The lowest CPU in l that is >= from, or -1: for (c = next(l,0); c >= 0; c = next(l,c+1)). */
int cpulist_next(const struct cpulist *l, int from);
/* The CPUs ascending in a malloc'd array (*ids, free it). Count, or -1. */
int cpulist_ids(const struct cpulist *l, int **ids);

#define CPULIST_EMPTY_OK 1 /* an empty text is the empty set (sysfs "offline") */

/* "0-3,6" (surrounding whitespace allowed) into l, which is cleared first.
 * Count, or -1 with the reason in err (malformed, or naming a CPU this
 * machine does not have). Open/read/snprintf only: safe on a signal path. */
int cpulist_parse(struct cpulist *l, const char *text, int flags, char *err, size_t errlen);
/* How many CPUs a list such as "0-3,6" names, from its text alone (any
 * machine's: a results file's, sysfs's); 0 for "" or a malformed list. */
int cpulist_text_count(const char *s);
/* l as "0-3,6" (truncated, still terminated, when len is short). */
void cpulist_format(const struct cpulist *l, char *buf, size_t len);
/* The CPU list in a file (e.g. sysfs "online") into l. Count, or -1 with a message. */
int cpulist_read(struct cpulist *l, const char *path, int flags, char *err, size_t errlen);
/* The online CPUs into l. Count, or -1 with a message. */
int cpulist_online(struct cpulist *l, char *err, size_t errlen);

/* A CPU list given by a user (an option): well formed, and every CPU in it
 * exists and is online. Its count, or -1 with the reason in err. */
int cpulist_check_online(const char *text, char *err, size_t errlen);

#endif
