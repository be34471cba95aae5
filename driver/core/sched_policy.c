/*
 * sched_policy.c - set a loop thread's scheduling policy (see
 * sched_policy.h for when the loops run as SCHED_BATCH). Linux applies
 * sched_setscheduler(0, ...) to the calling thread, not the process, so
 * each loop sets its own and the timing and signal threads keep theirs.
 */
#include "core/sched_policy.h"

#include <sched.h>
#include <string.h>

int sched_policy_batch_from(const char *s, int engine_min, int paced)
{
    if (!s)
        return -1;
    if (strcmp(s, "auto") == 0)
        return paced ? SCHED_BATCH_NEVER : engine_min;
    if (strcmp(s, "batch") == 0)
        return 2;
    if (strcmp(s, "normal") == 0)
        return SCHED_BATCH_NEVER;
    return -1;
}

int sched_policy_apply_loop(int batch_from, int nconns)
{
    struct sched_param sp = {.sched_priority = 0};
    return sched_setscheduler(0, nconns >= batch_from ? SCHED_BATCH : SCHED_OTHER, &sp);
}
