/*
 * lsetup.h - a script's lapi_script filled from parsed options: the engine,
 * the connection targets, the seed and the --rand-* generators, shared by the
 * script verbs and the sweep (lsetup.c).
 */
#ifndef DBSCALE_LSETUP_H
#define DBSCALE_LSETUP_H

#include "lua/lapi.h"
#include "lua/lscript.h"
#include "client/oltp.h"

/* ls->path, command and lua_path stay as the caller set them; the rest
 * comes from o and st (threads from --threads when it is one number). */
void lsetup_fill(struct lapi_script *ls, const struct opts *o, const struct oltp_setup *st);

#endif
