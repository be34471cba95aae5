/*
 * study_axes.h - a study's host axes read from the verb's options: server
 * builds and sets of server settings, each value with the words it adds to
 * the command; and what the study reads of the command itself.
 */
#ifndef DBSCALE_STUDY_AXES_H
#define DBSCALE_STUDY_AXES_H

#include <stddef.h>

#include "core/options.h"
#include "study/plan.h"

#define STUDY_AXIS_MAX STUDY_MAXVARIANTS

/* The value of --NAME in cmd[1..ncmd) (--NAME=V or --NAME V; the last
 * given), or NULL. */
const char *study_axes_option(char *const *cmd, int ncmd, const char *name);
/* The command's server engine (servers/server.h): its --db-driver, else
 * its --config file's db-driver line, else sysbench's default, mysql; -1
 * when it names none. */
int study_axes_engine(char *const *cmd, int ncmd);

/* --server-bin [LABEL=]DIR... into ax ("build"; n 0 when none), each an
 * installation of engine (server_install_find), its label the one given or
 * its version; guest: the runs boot a guest, which cannot see the host's
 * /tmp. 0, or -1 with err naming the option and the value. */
int study_axes_builds(const struct opts *o, char *const *cmd, int ncmd, int engine, int guest,
                      struct study_axis *ax, char *err, size_t errlen);
/* --settings LABEL=LINE... into ax ("settings"), lines grouped by label in
 * the order labels first appear, each set checked against every build's
 * server (builds, maybe empty: the default one). 0, or -1 with err. */
int study_axes_settings(const struct opts *o, char *const *cmd, int ncmd, int engine,
                        const struct study_axis *builds, struct study_axis *ax, char *err,
                        size_t errlen);
/* The values and their words. */
void study_axes_free(struct study_axis *ax);

#endif
