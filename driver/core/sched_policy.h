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
 *
 * A loop of few connections has little to gather, and then the preemption
 * can be worth more than it costs: a MariaDB server thread finishes its
 * statement after it has sent the reply, so a loop that runs at once has
 * sent the next statement before the thread reads, and the thread never
 * sleeps; under SCHED_BATCH it sleeps in poll after every statement. So the
 * policy is one number, the fewest connections a loop must serve to run as
 * SCHED_BATCH (the engine's batch_min_conns by default, db.h).
 */
#ifndef DBSCALE_SCHED_POLICY_H
#define DBSCALE_SCHED_POLICY_H

#include <limits.h>

/* A batch_from that keeps every loop on the normal policy. */
#define SCHED_BATCH_NEVER INT_MAX

/* --client-sched: "auto" (returns engine_min, or SCHED_BATCH_NEVER when
 * paced: arrivals must be sent on time, not gathered), "batch" (2: every
 * loop with more than one connection), "normal" (SCHED_BATCH_NEVER); -1 for
 * anything else. */
int sched_policy_batch_from(const char *s, int engine_min, int paced);

/* Give the calling loop thread (only it) SCHED_BATCH if it serves at least
 * batch_from connections, else the normal policy. Returns 0, or -1 with
 * errno (the loop goes on under the policy it had: a figure, never a
 * failure). */
int sched_policy_apply_loop(int batch_from, int nconns);

#endif
