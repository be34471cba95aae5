/*
 * lua_verb.h - the verbs of a sysbench Lua script: dbscale ./x.lua [opts] CMD
 * and dbscale run|prepare|cleanup SCRIPT.lua [opts] (lua_verb.c).
 */
#ifndef DBSCALE_LUA_VERB_H
#define DBSCALE_LUA_VERB_H

/* 1 if arg names a script: a path ending in ".lua" that exists, or a name
 * that is not a built-in workload with NAME.lua in the working directory. */
int lua_verb_is_script(const char *arg);
/* The first argument among argv[0..argc) that is a script, or -1. Options
 * (words starting with '-') are skipped. */
int lua_verb_find_script(int argc, char **argv);
/* verb: "run", "prepare", ... or NULL when the command is the last bare
 * word (sysbench's order). argv holds the script, options and command. */
int lua_main(const char *verb, int argc, char **argv);

#endif
