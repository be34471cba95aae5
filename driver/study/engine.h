/*
 * engine.h - the one study engine: a command run for every variant, round
 * after round, interleaved (A B C, A B C ...), each variant into its own
 * results directory OUT/VARIANT, then, with a target, rounds added for the
 * points whose interval is still wider than it, until it is met or the
 * budget (repeats per point, wall time) is spent; OUT/study.json records
 * what ran, when, and how it ended after every run.
 *
 * What runs a run is a backend: the host's child process (host.h) or a
 * qemu guest (vm/study.h), so kernels, server builds and server settings
 * are one engine's axes. The engine never prints: the verb is told
 * through the callbacks and prints.
 */
#ifndef DBSCALE_STUDY_ENGINE_H
#define DBSCALE_STUDY_ENGINE_H

#include <stddef.h>

#include "study/plan.h"
#include "study/target.h"

struct study_engine;

/* What runs a run. */
struct study_backend {
    const char *name; /* "host" or "guest": the record's */
    void *arg;
    /* Run u: words[0..nwords) (the verb first) with its --out the variant's
     * directory, adding to what an earlier run left there when append.
     * Fills u's status, why, exit_code, boot_id and seconds. 0, or -1 when
     * it failed or was stopped (signals.h tells which). */
    int (*run)(void *arg, struct study_run *u, char *const *words, int nwords, int append,
               int echo);
    /* After every run: the backend's own record of the study (a guest's
     * kernels.json), or NULL. 0, or -1 with err. */
    int (*record)(void *arg, const struct study_engine *e, char *err, size_t errlen);
};

struct study_engine {
    /* set by the verb */
    struct study_axis axes[STUDY_AXES];
    int naxes;
    struct study_variant *v;
    int nv;
    int rounds;       /* planned: every variant's repeats before any target */
    char *const *cmd; /* the command, its verb first */
    int ncmd;
    const char *const *common; /* words added to every run's command (--repeats=1 ...) */
    int ncommon;
    struct study_target target; /* ci 0: no target */
    struct study_backend be;
    int echo;         /* the backend shows the command's output */
    const char *verb; /* "study" or "kernels", for the record */
    char out[1024];   /* OUT, absolute */
    int outfd;        /* OUT, opened once */
    char cwd[1024];
    void (*on_start)(const struct study_engine *e, int i, void *arg);
    void (*on_end)(const struct study_engine *e, int i, void *arg);
    void (*on_note)(const struct study_engine *e, const char *msg, void *arg);
    void *cb_arg;
    /* the engine's */
    struct study_run *runs;
    int nruns, planned;
    struct study_point *pts; /* the target's last judgement of every point */
    int npts;
    int added;            /* rounds added for the target */
    char target_end[400]; /* how the target ended, "" without one */
    int target_met;       /* 1 when every point met it */
    char started[32], ended[32];
    double t0;
};

/* The planned runs: the variants x rounds, interleaved. */
void study_engine_plan(struct study_engine *e);

/* Every planned run, then the target's rounds. 0 when every run went well;
 * 1 when one failed; 2 when the first run's command was refused (exit 2:
 * every other run would refuse it too; nothing else runs); -1 when a stop
 * signal ended it (what finished is kept and recorded). */
int study_engine_run(struct study_engine *e);

/* The words of run i's command into words (owned by e, valid until the
 * next call): the command, the common words, its variant's values' words
 * and, for an added run, --cpus and --threads of its points. The count. */
int study_engine_words(struct study_engine *e, int i, char ***words);

void study_engine_free(struct study_engine *e);

#endif
