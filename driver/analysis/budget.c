/*
 * budget.c - one transaction's connection time in parts that do not overlap.
 *
 * The one idea: start from what is whole (threads / tps per transaction)
 * and give each part only what a collector measured: PostgreSQL's sampled
 * states are shares of that whole already; MariaDB's timed waits are
 * subtracted from it, and what is left is the statements' CPU. The run
 * queue comes out of the CPU part (a runnable backend has no wait event),
 * never on top of it.
 *
 * Never invent a part: a figure no collector measured stays NAN.
 */
#include "analysis/budget.h"

#include <math.h>
#include <string.h>

static const char *const part_names[BP_N] = {"CPU",       "run queue", "lock waits",
                                             "I/O waits", "client",    "other waits"};

const char *budget_part_name(enum budget_part p)
{
    return p < BP_N ? part_names[p] : "?";
}

static double or0(double v)
{
    return isnan(v) ? 0 : v;
}

int budget_of(const struct whypoint *w, const char *engine, double threads, double tps,
              struct budget *b)
{
    memset(b, 0, sizeof *b);
    for (int p = 0; p < BP_N; p++)
        b->part[p] = NAN;
    b->total_us = tps > 0 && threads > 0 ? threads / tps * 1e6 : NAN;
    b->coverage = NAN;
    if (!w || isnan(b->total_us) || isnan(w->cat[WP_LOCK]))
        return -1; /* no waits measured at this point */
    double lock = or0(w->cat[WP_LOCK]), io = or0(w->cat[WP_IO]);
    double client = or0(w->cat[WP_CLIENT]), other = or0(w->cat[WP_OTHER]);
    double cpu;
    b->sampled = !strcmp(engine, "pgsql");
    if (b->sampled) {
        cpu = or0(w->cat[WP_ONCPU]);
        double seen = cpu + lock + io + client + other;
        b->coverage = seen / b->total_us;
    } else {
        double timed = lock + io + client + other;
        cpu = b->total_us - timed;
        if (cpu < 0)
            cpu = 0;
        b->coverage = timed / b->total_us;
    }
    double runq = isnan(w->runq_us_txn) ? NAN : fmin(w->runq_us_txn, cpu);
    b->part[BP_CPU] = isnan(runq) ? cpu : cpu - runq;
    b->part[BP_RUNQ] = runq;
    b->part[BP_LOCK] = lock;
    b->part[BP_IO] = io;
    b->part[BP_CLIENT] = client;
    b->part[BP_OTHER] = other;
    return 0;
}
