/*
 * lapi_sbdecl.h - what sysbench 1.0.20's internal Lua has set up by the
 * time a script runs, and the prelude (lapi_prelude.lua) does not: every C
 * type, enum and function sysbench declares with ffi.cdef, the
 * sysbench.histogram API over them, sysbench.cmdline's ARG_* constants and
 * command helpers, and the compatibility globals (test, mysql_table_engine,
 * myisam_max_rows).
 *
 * Why all of them: kits declare their own ffi functions in terms of
 * sysbench's types (Percona's TPC-C kit: `void sb_counter_inc(int,
 * sb_counter_type);`) and read enum constants through ffi.C
 * (ffi.C.SB_CNT_ERROR), and LuaJIT refuses a second definition of an enum
 * constant. So the set is sysbench's exactly, no more and no less: a
 * script that runs under sysbench 1.0.20 finds what it finds there, and
 * one that would clash there clashes here. The names, types and enum
 * orders are sysbench's (src/lua/internal/sysbench*.lua); the layout is
 * ours. The functions a script may call are defined in dbscale
 * (lapi_ffi.c, lapi_rand.c, lapi_hist.c); the db_* and option-table functions
 * are declared only: dbscale's SQL objects are Lua tables, not sysbench's
 * structs, and a call to one names the missing symbol.
 *
 * Run once per Lua state, before the prelude, as a chunk of its own.
 */
#ifndef DBSCALE_LAPI_SBDECL_H
#define DBSCALE_LAPI_SBDECL_H

static const char lapi_sbdecl[] =
    /* a global, as sysbench's internal files leave it: scripts use ffi
     * without requiring it */
    "ffi = require('ffi')\n"
    "local ffi = ffi\n"
    "ffi.cdef[[\n"
    /* sysbench.histogram.lua */
    "typedef struct histogram sb_histogram_t;\n"
    "sb_histogram_t *sb_histogram_new(size_t size, double range_min, double range_max);\n"
    "void sb_histogram_delete(sb_histogram_t *h);\n"
    "void sb_histogram_update(sb_histogram_t *h, double value);\n"
    "void sb_histogram_print(sb_histogram_t *h);\n"
    /* sysbench.sql.lua: the driver's types, in db_driver.h's order */
    "typedef enum { DB_ERROR_NONE, DB_ERROR_IGNORABLE, DB_ERROR_FATAL } sql_error_t;\n"
    "typedef struct { const char *sname; const char *lname; const char opaque[?]; } "
    "sql_driver;\n"
    "typedef struct { uint32_t len; const char *ptr; } sql_value;\n"
    "typedef struct { void *ptr; sql_value *values; } sql_row;\n"
    "typedef enum { SB_CNT_OTHER, SB_CNT_READ, SB_CNT_WRITE, SB_CNT_TRX, SB_CNT_ERROR,\n"
    "  SB_CNT_RECONNECT, SB_CNT_MAX } sb_counter_type;\n"
    "typedef struct { sql_error_t error; int sql_errno; const char *sql_state;\n"
    "  const char *sql_errmsg; sql_driver *driver; const char opaque[?]; } sql_connection;\n"
    "typedef struct { sql_connection *connection; const char opaque[?]; } sql_statement;\n"
    "typedef struct { sb_counter_type counter; uint32_t nrows; uint32_t nfields;\n"
    "  sql_statement *statement; void *ptr; sql_row row; } sql_result;\n"
    "typedef enum { SQL_TYPE_NONE, SQL_TYPE_TINYINT, SQL_TYPE_SMALLINT, SQL_TYPE_INT,\n"
    "  SQL_TYPE_BIGINT, SQL_TYPE_FLOAT, SQL_TYPE_DOUBLE, SQL_TYPE_TIME, SQL_TYPE_DATE,\n"
    "  SQL_TYPE_DATETIME, SQL_TYPE_TIMESTAMP, SQL_TYPE_CHAR, SQL_TYPE_VARCHAR } "
    "sql_bind_type_t;\n"
    "typedef struct { sql_bind_type_t type; void *buffer; unsigned long *data_len;\n"
    "  unsigned long max_len; char *is_null; } sql_bind;\n"
    "sql_driver *db_create(const char *);\n"
    "int db_destroy(sql_driver *drv);\n"
    "sql_connection *db_connection_create(sql_driver *drv);\n"
    "int db_connection_close(sql_connection *con);\n"
    "int db_connection_reconnect(sql_connection *con);\n"
    "void db_connection_free(sql_connection *con);\n"
    "int db_bulk_insert_init(sql_connection *, const char *, size_t);\n"
    "int db_bulk_insert_next(sql_connection *, const char *, size_t);\n"
    "int db_bulk_insert_done(sql_connection *);\n"
    "sql_result *db_query(sql_connection *con, const char *query, size_t len);\n"
    "sql_row *db_fetch_row(sql_result *rs);\n"
    "sql_statement *db_prepare(sql_connection *con, const char *query, size_t len);\n"
    "int db_bind_param(sql_statement *stmt, sql_bind *params, size_t len);\n"
    "int db_bind_result(sql_statement *stmt, sql_bind *results, size_t len);\n"
    "sql_result *db_execute(sql_statement *stmt);\n"
    "int db_close(sql_statement *stmt);\n"
    "int db_free_results(sql_result *);\n"
    /* sysbench.rand.lua */
    "uint64_t sb_rand_uniform_uint64(void);\n"
    "uint32_t sb_rand_default(uint32_t, uint32_t);\n"
    "uint32_t sb_rand_uniform(uint32_t, uint32_t);\n"
    "uint32_t sb_rand_gaussian(uint32_t, uint32_t);\n"
    "uint32_t sb_rand_special(uint32_t, uint32_t);\n"
    "uint32_t sb_rand_pareto(uint32_t, uint32_t);\n"
    "uint32_t sb_rand_unique(void);\n"
    "void sb_rand_str(const char *, char *);\n"
    "double sb_rand_uniform_double(void);\n"
    /* sysbench.cmdline.lua: sb_option.h's argument types */
    "typedef enum { SB_ARG_TYPE_NULL, SB_ARG_TYPE_BOOL, SB_ARG_TYPE_INT, SB_ARG_TYPE_SIZE,\n"
    "  SB_ARG_TYPE_DOUBLE, SB_ARG_TYPE_STRING, SB_ARG_TYPE_LIST, SB_ARG_TYPE_FILE,\n"
    "  SB_ARG_TYPE_MAX } sb_arg_type_t;\n"
    "typedef bool sb_opt_validate_t(const char *, const char *);\n"
    "typedef struct { const char *name; const char *desc; const char *value;\n"
    "  sb_arg_type_t type; sb_opt_validate_t *validate; } sb_arg_t;\n"
    "int sb_lua_set_test_args(sb_arg_t *args, size_t len);\n"
    "void sb_print_test_options(void);\n"
    /* sysbench.lua: the event loop's pacing */
    "void sb_event_start(int thread_id);\n"
    "void sb_event_stop(int thread_id);\n"
    "bool sb_more_events(int thread_id);\n"
    "]]\n"
    "local C = ffi.C\n"
    /* sysbench.histogram: new(size, min, max) with :update(v) and :print() */
    "local hist = {}\n"
    "function hist:update(v) C.sb_histogram_update(self, v) end\n"
    "function hist:print() C.sb_histogram_print(self) end\n"
    "ffi.metatype('sb_histogram_t', {__index = hist,\n"
    "  __tostring = function() return '<sb_histogram>' end})\n"
    "sysbench.histogram = {new = function(size, lo, hi)\n"
    "  local h = C.sb_histogram_new(size, lo, hi)\n"
    "  if h == nil then error('sysbench.histogram.new: bad size or range', 2) end\n"
    "  return ffi.gc(h, C.sb_histogram_delete)\n"
    "end}\n"
    /* sysbench.cmdline: the option types and the command helpers */
    "local cl = sysbench.cmdline\n"
    "for _, k in ipairs({'NULL', 'BOOL', 'INT', 'SIZE', 'DOUBLE', 'STRING', 'LIST', 'FILE',\n"
    "    'MAX'}) do cl['ARG_' .. k] = tonumber(C['SB_ARG_TYPE_' .. k]) end\n"
    "function cl.command_defined(name)\n"
    "  local c = type(cl.commands) == 'table' and cl.commands[name]\n"
    "  return type(c) == 'table' and c[1] ~= nil\n"
    "end\n"
    "function cl.command_parallel(name)\n"
    "  return cl.command_defined(name) and cl.commands[name][2] == cl.PARALLEL_COMMAND\n"
    "end\n"
    "function cl.call_command(name)\n"
    "  if not cl.command_defined(name) then return false end\n"
    "  local rc = cl.commands[name][1]()\n"
    "  return rc == nil or (rc and true or false)\n"
    "end\n"
    /* sysbench.compat.lua's globals that still mean something in 1.0.20 */
    "test = cl.script_path\n"
    "mysql_table_engine = mysql_table_engine or 'innodb'\n"
    "myisam_max_rows = 1000000\n";

#endif
