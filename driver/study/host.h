/*
 * host.h - the study's host backend: a run is this same dbscale run as a
 * child process with the run's command, its --out the variant's directory
 * under OUT, its output kept in OUT/log/RUN.log (and echoed when asked).
 * For a study whose axes need no guest (server builds, server settings).
 */
#ifndef DBSCALE_STUDY_HOST_H
#define DBSCALE_STUDY_HOST_H

#include <sys/types.h>

#include "study/engine.h"

struct study_host {
    char exe[1024];  /* this dbscale */
    const char *out; /* OUT, absolute */
    int outfd;
    pid_t child; /* the running command's, 0 between runs */
};

/* The backend over h (the engine's be). */
struct study_backend study_host_backend(struct study_host *h);

#endif
