/*
 * record.h - OUT/study.json, the study as it ran: the command, the axes
 * and their values (each value's words: the build's directory, the
 * settings' lines), the variants, every run in the order it ran (variant,
 * repeat, the points an added run was restricted to, start time, seconds,
 * outcome, boot id) and the target's outcome with the points that never
 * met it. Rewritten after every run, so an interrupted study keeps what
 * finished; results/studyrec.h reads it back for the page.
 */
#ifndef DBSCALE_STUDY_RECORD_H
#define DBSCALE_STUDY_RECORD_H

#include <stddef.h>

#include <jansson.h>

#include "study/engine.h"

/* o as indented JSON with a final newline into dirfd/name, atomically (the
 * study's records: study.json here, kernels.json in vm/); o is released. 0,
 * or -1 with "DIR/NAME: reason" in err (dir names dirfd in it). */
int study_json_write(int dirfd, const char *dir, const char *name, json_t *o, char *err,
                     size_t errlen);

/* OUT/study.json through e->outfd, atomically. 0, or -1 with err. */
int study_record_write(const struct study_engine *e, char *err, size_t errlen);

#endif
