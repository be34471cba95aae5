/*
 * sweep.h - the scaling study as one command: client threads x server CPU
 * count x repeats, each level labelled with the variant that produced it,
 * results written after every level. Entry point: sweep_main (verbs.h).
 */
#ifndef DBSCALE_SWEEP_H
#define DBSCALE_SWEEP_H

#include "results.h"

/* Label for a level: "up" on a uniprocessor boot, "smp-kN" for N CPUs held,
 * or the user's --variant. */
void sweep_variant(char *buf, size_t len, const char *user_label, int up, int cpus);

#endif
