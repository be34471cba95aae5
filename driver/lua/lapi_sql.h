/*
 * lapi_sql.h - the SQL objects' C half (lapi_sql.c), for lapi_state.c's state
 * opening. Private to driver/lua.
 */
#ifndef DBSCALE_LAPI_SQL_H
#define DBSCALE_LAPI_SQL_H

#include <lauxlib.h>

#include "lua/lapi.h"

/* Parameters of one statement; prepared statements one script connection
 * may hold at once (a script that prepares more gets an error naming the
 * limit). */
#define LAPI_MAX_PARAMS 256
#define LAPI_MAX_STMTS  1024

/* The prelude's primitives for connections and statements: C functions
 * whose upvalues are the thread and the "dbscale.conn" metatable. */
extern const luaL_Reg lapi_sql_prims[];
/* Register the connection and result set metatables in L. */
void lapi_sql_open(lua_State *L);

#endif
