/*
 * fdwait.h - the loops shared by the fd-waiting tests (poll1/2, select1/2/3):
 * one test file each, as will-it-scale has them, but one loop per family,
 * since the files differ only in how many idle pipes are waited on.
 */
#ifndef DBSCALE_MICRO_FDWAIT_H
#define DBSCALE_MICRO_FDWAIT_H

#include "micro/harness.h"

/* poll(2) nfds idle pipes with a zero timeout, counting calls. */
int micro_poll_loop(struct micro_task *t, volatile uint64_t *it, int nfds);
/* select(2) nfds idle pipes with a zero timeout, counting calls. */
int micro_select_loop(struct micro_task *t, volatile uint64_t *it, int nfds);

#endif
