/*
 * placement.h - where the client runs beside a server held to k CPUs, and
 * pinning the calling thread there: the sweep's --client-cpus decision
 * (same, rest or a list) as one pure function, and the pin/unpin pair the
 * scripted levels and the kernel baseline's file benchmark use.
 */
#ifndef DBSCALE_PLACEMENT_H
#define DBSCALE_PLACEMENT_H

#include <stddef.h>

#include "core/cpulist.h"

/* The client's CPU list for a server held to online[0..k) of
 * online[0..nonline), from --client-cpus spec: "same" the server's CPUs;
 * "rest" the online CPUs after them (the server's when none are left); a
 * CPU list (checked in option set-up) as given; NULL or "" nowhere in
 * particular (cli ""). *shared: 1 when the client may run on a server CPU. */
void placement_client(const char *spec, const int *online, int nonline, int k, char *cli, size_t cl,
                      int *shared);

/* Pin the calling thread to list, its mask before into old (the threads it
 * starts inherit the pin). 1 pinned, 0 not (NULL, or a list that does not
 * parse or cannot be set): then old is not to be restored. */
int placement_pin_self(const char *list, struct cpulist *old);
/* The same for a set already made (sized by cpulist_init). */
int placement_pin_self_to(const struct cpulist *want, struct cpulist *old);
/* Back to old (from placement_pin_self's 1), freeing it. */
void placement_unpin_self(struct cpulist *old);

#endif
