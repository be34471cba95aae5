/*
 * budget.h - where one transaction's connection time went at one point of a
 * curve, in parts that do not overlap: CPU, the run queue, lock waits, I/O
 * waits, the client (the server waiting for the next statement: network and
 * client time) and other waits. The whole is Little's law's: a connection
 * spends threads / tps seconds per transaction.
 *
 * PostgreSQL's parts are samples of the connections' states (a sample with
 * no wait event is on CPU or runnable, split by the run-queue wait the
 * scheduler counted); MariaDB's waits are timed and its statements' CPU is
 * what the statement time leaves. How much of the whole the parts cover is
 * said, never assumed.
 */
#ifndef DBSCALE_BUDGET_H
#define DBSCALE_BUDGET_H

#include "analysis/whypoint.h"

enum budget_part { BP_CPU, BP_RUNQ, BP_LOCK, BP_IO, BP_CLIENT, BP_OTHER, BP_N };

struct budget {
    double total_us;   /* threads / tps, connection-microseconds per transaction */
    double part[BP_N]; /* microseconds per transaction; NAN where not measured */
    /* The share of total_us the parts account for (sampled or timed; for
     * MariaDB the CPU part is the remainder, so it is not counted here);
     * NAN when nothing was measured. */
    double coverage;
    int sampled; /* 1: PostgreSQL's samples; 0: timed waits (MariaDB) */
};

/* "CPU", "run queue", "lock waits", "I/O waits", "client", "other waits" */
const char *budget_part_name(enum budget_part p);
/* The budget of point w (NULL: nothing measured) of an engine ("pgsql",
 * "mysql") at threads and median tps. 0, or -1 (all NAN) when there is
 * nothing to divide: no waits measured, or no throughput. */
int budget_of(const struct whypoint *w, const char *engine, double threads, double tps,
              struct budget *b);

#endif
