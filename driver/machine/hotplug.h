/*
 * hotplug.h - the hotplug method, as cpuset.c sees it (internal: the public
 * face is cpuset.h). CPUs go offline in sysfs and a guardian process that
 * outlives us, even SIGKILL, puts them back.
 */
#ifndef DBSCALE_HOTPLUG_H
#define DBSCALE_HOTPLUG_H

#include <stddef.h>
#include <sys/types.h>

#include "core/cpulist.h"

struct hotplug {
    int fd;             /* socket to the guardian; -1 when none */
    struct cpulist off; /* CPUs we took offline (the guardian knows each) */
};

/* Allocate h->off once (kept across opens: close must not free). 0 or -1. */
int hotplug_init(struct hotplug *h);

/* Check that hotplug works here (root, a writable online switch) and start
 * the guardian. 0, or -1 with a message; h is ready for hotplug_close either way. */
int hotplug_open(struct hotplug *h, char *err, size_t errlen);
/* Online every CPU in want, then offline every other one but CPU 0 (want
 * must hold 0), wait for sysfs to agree, and let pids' tasks use every CPU. */
int hotplug_apply(struct hotplug *h, const pid_t *pids, int npids, const struct cpulist *want,
                  char *err, size_t errlen);
/* Every CPU we took offline back online, the guardian told to exit.
 * Idempotent; safe on the signal path. */
void hotplug_close(struct hotplug *h);

#endif
