/*
 * placement.c - the client's CPUs beside a held server (placement.h).
 *
 * The one idea: the decision is made from the plan's online CPU ids alone,
 * with no process touched, so it can be tested without a server and the
 * sweep's built-in and scripted levels place their clients alike.
 */
#include "machine/placement.h"

#include <sched.h>
#include <stdio.h>
#include <string.h>

/* online[from..to) as a CPU list into out */
static void range(const int *online, int from, int to, char *out, size_t len)
{
    struct cpulist set;
    out[0] = '\0';
    if (cpulist_init(&set) < 0)
        return;
    for (int i = from; i < to; i++)
        cpulist_add(&set, online[i]);
    cpulist_format(&set, out, len);
    cpulist_free(&set);
}

void placement_client(const char *spec, const int *online, int nonline, int k, char *cli, size_t cl,
                      int *shared)
{
    char srv[256];
    *shared = 1;
    cli[0] = '\0';
    if (!spec || !*spec)
        return;
    range(online, 0, k, srv, sizeof srv);
    if (!strcmp(spec, "same")) {
        snprintf(cli, cl, "%s", srv);
    } else if (!strcmp(spec, "rest")) {
        if (k < nonline) {
            range(online, k, nonline, cli, cl);
            *shared = 0;
        } else {
            snprintf(cli, cl, "%s", srv); /* nothing left: share */
        }
    } else {
        /* a list of online CPUs: shared when it names one of the server's */
        struct cpulist c;
        char why[160];
        snprintf(cli, cl, "%s", spec);
        *shared = 0;
        if (cpulist_init(&c) < 0)
            return;
        if (cpulist_parse(&c, spec, 0, why, sizeof why) > 0)
            for (int i = 0; i < k; i++)
                *shared |= cpulist_has(&c, online[i]);
        cpulist_free(&c);
    }
}

int placement_pin_self_to(const struct cpulist *want, struct cpulist *old)
{
    if (cpulist_init(old) < 0)
        return 0;
    if (sched_getaffinity(0, old->size, old->set) == 0 &&
        sched_setaffinity(0, want->size, want->set) == 0)
        return 1;
    cpulist_free(old);
    return 0;
}

int placement_pin_self(const char *list, struct cpulist *old)
{
    struct cpulist want;
    char why[160];
    if (!list || cpulist_init(&want) < 0)
        return 0;
    int ok =
        cpulist_parse(&want, list, 0, why, sizeof why) > 0 && placement_pin_self_to(&want, old);
    cpulist_free(&want);
    return ok;
}

void placement_unpin_self(struct cpulist *old)
{
    sched_setaffinity(0, old->size, old->set);
    cpulist_free(old);
}
