/*
 * whypoint.h - the why files (whycsv.h) of a results directory as points of
 * its curves: per (variant, cpus, threads), where the server's time went per
 * transaction, by category and by wait event, each the median over the
 * repeats results.csv holds (repeat >= 1; --profile=knee's extra runs are
 * left out, and so is a repeat whose level completed nothing or was marked
 * disturbed). A wait's category is its event's class (results/waitclass.h),
 * whatever the file's cls column says. Pure: numbers in, numbers out.
 * A figure that was not measured is NAN, never 0.
 */
#ifndef DBSCALE_WHYPOINT_H
#define DBSCALE_WHYPOINT_H

#include <stddef.h>

#include "results/results.h"
#include "results/whycsv.h"

/* Categories, in microseconds per transaction. User and kernel CPU are the
 * server's tasks' (sched.csv; the held CPUs' when it is missing); irq,
 * idle and steal the held CPUs' (/proc/stat, whoever ran there); the wait
 * ones are the connections' time summed over connections, so CPU and waits
 * do not add up. */
enum {
    WP_USER,   /* the server's user CPU */
    WP_KERNEL, /* the server's kernel CPU */
    WP_IRQ,    /* irq + softirq on the held CPUs */
    WP_IDLE,   /* idle + iowait on the held CPUs */
    WP_STEAL,  /* given to other guests */
    WP_ONCPU,  /* connections on CPU (PostgreSQL's samples: no wait event) */
    WP_LOCK,   /* lock and latch waits */
    WP_IO,     /* I/O waits */
    WP_CLIENT, /* waiting for the client's next statement */
    WP_OTHER,  /* other waits */
    WP_N
};
extern const char *const whypoint_cat[WP_N]; /* "user CPU", "kernel CPU", ... */

#define WHYPOINT_EV 24

struct whypoint_ev {
    char event[96], cls[8];
    double us; /* per transaction */
};

struct whypoint {
    char variant[32];
    int cpus, threads;
    int repeats;                        /* how many repeats the medians are over */
    double cat[WP_N];                   /* NAN: not measured at this point */
    struct whypoint_ev ev[WHYPOINT_EV]; /* the largest first */
    int nev;
    double voluntary_txn, involuntary_txn, migrations_txn, runq_us_txn; /* NAN: not measured */
    /* The held CPUs' user + system time per transaction, whoever ran there
     * (/proc/stat): beside the server's own (cat[WP_USER] + cat[WP_KERNEL]
     * from sched.csv) it shows what others, the client among them, took. */
    double held_busy_us;
};

/* Every point of w, into *out (malloc'd). Count. rs (NULL: every repeat
 * counts) says which repeats measured something: one whose results.csv row
 * completed no transaction or is marked disturbed is left out. */
size_t whypoint_build(const struct whycsv *w, const struct result_set *rs, struct whypoint **out);
/* The point of (variant, cpus, threads), or NULL. */
const struct whypoint *whypoint_find(const struct whypoint *p, size_t n, const char *variant,
                                     int cpus, int threads);
/* An event's microseconds per transaction at p: 0 when the point's waits
 * were measured and the event never seen, NAN when they were not measured. */
double whypoint_event(const struct whypoint *p, const char *event);

#endif
