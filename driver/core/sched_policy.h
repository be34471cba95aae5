/*
 * sched_policy.h - the scheduling policy of the client's event loops.
 *
 * A loop serves many connections, and every reply that comes back wakes it.
 * Under the normal policy (SCHED_OTHER) a woken loop preempts whatever runs
 * on that CPU, usually the server thread that just sent the reply, so the
 * loop wakes once per reply and serves one. SCHED_BATCH keeps the normal
 * time slices and priority but does not preempt on wake-up: the server
 * threads finish their turn first and the loop finds several replies ready
 * when it runs, with fewer wake-ups and cross-CPU interrupts (README, Speed).
 */
#ifndef DBSCALE_SCHED_POLICY_H
#define DBSCALE_SCHED_POLICY_H

enum sched_policy { SCHED_POLICY_BATCH = 0, SCHED_POLICY_NORMAL };

/* "batch" or "normal"; -1 for anything else. */
int sched_policy_parse(const char *s);

/* Give the calling thread (only it) that policy. Returns 0, or -1 with errno
 * (the loop goes on under the policy it had: a figure, never a failure). */
int sched_policy_apply(enum sched_policy p);
/* The same for an event loop of nconns connections: a loop of one has no
 * replies to gather and keeps the policy it was started with under BATCH. */
int sched_policy_apply_loop(enum sched_policy p, int nconns);

#endif
