/*
 * redact.h - secrets out of what dbscale shows and stores: a libpq conninfo
 * (keyword form or URI) with its password fields masked, for argv, meta.json
 * and messages alike.
 */
#ifndef DBSCALE_REDACT_H
#define DBSCALE_REDACT_H

#include <stddef.h>

#include "core/options.h"
#include "core/util.h"

#define REDACT_MASK "xxxxx"

/*
 * in as libpq reads it, every secret field (password, sslpassword: the ones
 * libpq itself displays as '*') replaced by REDACT_MASK, rebuilt in keyword
 * form into out (n bytes). 0 if in holds no secret (out is a copy of in),
 * 1 if something was masked, -1 if libpq cannot parse in or out is too small
 * (out then holds only a placeholder: nothing of in is trusted to be shown).
 */
int redact_conninfo(const char *in, char *out, size_t n);
/* Is --name an option whose value is a conninfo (ends in "conninfo")? */
int redact_is_conninfo_opt(const char *name);
/* opts_json() with every conninfo option's value passed through redact_conninfo. */
void redact_opts_json(const struct opts *o, struct sbuf *b);

#endif
