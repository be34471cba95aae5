/*
 * lfind.h - where a script NAME and a script's require() are looked for:
 * NAME.lua in the working directory, then each entry of --lua-path, then
 * sysbench's own install directories (/usr/share/sysbench, where the
 * scripts it ships are: `dbscale bulk_insert prepare` as with sysbench).
 */
#ifndef DBSCALE_LFIND_H
#define DBSCALE_LFIND_H

#include <stddef.h>

#include "core/options.h"

/* --lua-path, for the verbs that run scripts (one entry) */
extern const struct optdef lfind_optdefs[];
extern const size_t lfind_noptdefs;

/* The file arg names, into out: a path ending in ".lua" that exists as it
 * is; else, for a bare NAME (no '/'), NAME.lua in the working directory,
 * then on lua_path (may be NULL), then in sysbench's install directories. lua_path is
 * sysbench-like: entries split on ';' or ',', each a directory or a Lua template with '?'
 * ("dir/?.lua"). 1 found, 0 not. */
int lfind_script(const char *arg, const char *lua_path, char *out, size_t outlen);

/* package.path for a script at script_path: its own directory, the working
 * directory, lua_path's entries, then /usr/share/sysbench and
 * /usr/local/share/sysbench. Into out, ';'-separated templates. */
void lfind_package_path(const char *script_path, const char *lua_path, char *out, size_t outlen);

/* The value of --lua-path (or --lua_path) among argv[0..argc), or NULL:
 * read before the options are parsed, because it decides what NAME is. */
const char *lfind_lua_path_arg(int argc, char **argv);

#endif
