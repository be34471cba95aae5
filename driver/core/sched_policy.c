/*
 * sched_policy.c - set the calling thread's scheduling policy (see
 * sched_policy.h for why the loops run as SCHED_BATCH). Linux applies
 * sched_setscheduler(0, ...) to the calling thread, not the process, so
 * each loop sets its own and the timing and signal threads keep theirs.
 */
#include "sched_policy.h"

#include <sched.h>
#include <string.h>

int sched_policy_parse(const char *s)
{
    if (!s)
        return -1;
    if (strcmp(s, "batch") == 0)
        return SCHED_POLICY_BATCH;
    if (strcmp(s, "normal") == 0)
        return SCHED_POLICY_NORMAL;
    return -1;
}

int sched_policy_apply(enum sched_policy p)
{
    struct sched_param sp = {.sched_priority = 0};
    return sched_setscheduler(0, p == SCHED_POLICY_BATCH ? SCHED_BATCH : SCHED_OTHER, &sp);
}

int sched_policy_apply_loop(enum sched_policy p, int nconns)
{
    return p == SCHED_POLICY_BATCH && nconns <= 1 ? 0 : sched_policy_apply(p);
}
