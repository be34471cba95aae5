/*
 * meta_command.h - the command that reproduces a sweep, as meta.json keeps
 * it ("command": the words after `dbscale sweep`) for the report page: the
 * workload, then only what the user set, on the command line or in a config
 * file. Never a password, never --out or --append (a reproduction writes a
 * new directory), never --config (its values are among the words).
 */
#ifndef DBSCALE_META_COMMAND_H
#define DBSCALE_META_COMMAND_H

#include <jansson.h>

#include "core/options.h"

/* The words for o (parsed) and workload (the built-in name, or the
 * script's path as given): a new JSON array of strings, "--NAME=VALUE"
 * after the workload, one word per value of a repeated option (a comma in
 * a value stays), a conninfo's password masked. */
json_t *meta_command_words(const struct opts *o, const char *workload);

/* Options a reproduction never carries over. */
int meta_command_skips(const char *name);

#endif
