-- lapi_prelude.lua - the Lua half of the sysbench API (lapi_state.c and lapi_sql.c
-- hold the C half). Written for dbscale from sysbench 1.0.20's documented behaviour:
-- the objects scripts use (connection, statement, parameter) as Lua tables
-- over a few C primitives passed in as the chunk's argument. Errors name the
-- script's line (_check's level skips this chunk's frames).
local C = ...
-- globals the hot paths use, as locals: no table lookup per call
local type, tonumber, tostring = type, tonumber, tostring
local ffi = require('ffi')
-- sysbench's own declarations (sb_counter_type, sb_rand_*, ...) were
-- made before this chunk (lapi_sbdecl.h); sb_counter_inc is declared by
-- the scripts that call it, as under sysbench. What an event calls
-- besides its statements goes through the ffi (lapi_ffi.c says why).
ffi.cdef[[
int dbscale_more(void);
void dbscale_ev_start(void);
void dbscale_ev_stop(void);
double dbscale_rand(int kind, double a, double b);
void dbscale_arg(int i, const char *v);
void dbscale_arg_int(int i, double v);
int dbscale_execute(void *h, int id, int np);
int dbscale_query(void *h, const char *sql);
]]
local FC = ffi.C
sysbench.rand.uniform_uint64 = function() return FC.sb_rand_uniform_uint64() end
-- an error names the script's line, unless the draw was a tail call
-- (then its caller is this chunk, which would mislead)
local function rand_err(msg)
  local w = debug.getinfo(3, 'S')
  error(msg, (w and w.source ~= '=dbscale') and 3 or 0)
end
local function rand_fn(kind, name)
  return function(a, b)
    local x, y = tonumber(a), tonumber(b)
    if not x or not y then rand_err(string.format("bad argument #%d to '%s' (number "
      .. "expected, got %s)", x and 2 or 1, name, type(x and b or a))) end
    local r = FC.dbscale_rand(kind, x, y)
    if r < 0 then rand_err(string.format('sysbench.rand: the upper bound %s is below the '
      .. 'lower %s', tostring(b), tostring(a))) end
    return r
  end
end
sysbench.rand.default = rand_fn(-1, 'default')
sysbench.rand.uniform = rand_fn(0, 'uniform')
sysbench.rand.gaussian = rand_fn(1, 'gaussian')
sysbench.rand.special = rand_fn(2, 'special')
sysbench.rand.pareto = rand_fn(3, 'pareto')
sysbench.rand.zipfian = rand_fn(4, 'zipfian')
local T = {NONE=0, TINYINT=1, SMALLINT=2, INT=3, BIGINT=4, FLOAT=5, DOUBLE=6, TIME=7,
  DATE=8, DATETIME=9, TIMESTAMP=10, CHAR=11, VARCHAR=12}
sysbench.sql.type = T
sysbench.sql.error = {NONE=0, IGNORABLE=1, FATAL=2}
sysbench.error = {NONE=0, RESTART_EVENT=1}
sysbench.hooks = {}
local param = {}; param.__index = param
function param:set(v)
  if v == nil then self.value = nil return end
  -- an integer stays a number: C prints it as '%d' would, making no
  -- Lua string per statement
  if self.type == T.BIGINT then
    if type(v) == 'number' then self.value = v else self.value = string.format('%d', v) end
  elseif self.type == T.DOUBLE then self.value = string.format('%.17g', v)
  else v = tostring(v); if #v > self.max_len then v = v:sub(1, self.max_len) end
    self.value = v end
end
function param:set_rand_str(fmt) self:set(sysbench.rand.string(fmt)) end
param.__tostring = function() return '<sql_param>' end
-- a failed ffi statement (lapi_sql.c's codes): the error's parts for
-- con:_check, or an error of the script's call at level lvl
local function why(rc, h, lvl)
  if rc == -1 then return C.last_error(h) end
  if rc == -3 then error("the run ended before the statement's reply came", 0) end
  if rc == -2 then error('the connection is closed (disconnect() was called)', lvl) end
  if rc == -5 then error('more than 256 parameters', lvl) end
  error('execute() on a closed statement', lvl)
end
local function arg(i, v)
  if type(v) == 'number' then FC.dbscale_arg_int(i, v) else FC.dbscale_arg(i, v) end
end
local stmt = {}; stmt.__index = stmt
stmt.__tostring = function() return '<sql_statement>' end
function stmt:bind_create(btype, max_len)
  local p = setmetatable({}, param)
  if btype == T.TINYINT or btype == T.SMALLINT or btype == T.INT or btype == T.BIGINT then
    p.type = T.BIGINT; p.max_len = 8
  elseif btype == T.FLOAT or btype == T.DOUBLE then p.type = T.DOUBLE; p.max_len = 8
  elseif btype == T.CHAR or btype == T.VARCHAR then
    if type(max_len) ~= 'number' then error('bind_create: CHAR/VARCHAR need a maximum length', 2) end
    p.type = T.VARCHAR; p.max_len = max_len
  else error('Unsupported argument type: ' .. tostring(btype), 2) end
  return p
end
function stmt:bind_param(...)
  local n = select('#', ...)
  if n < 1 then return nil end
  self.params = {...}; self.np = n
  return 0
end
-- _check only on an error (a call less per statement), not as a tail
-- call: its error level counts this frame
function stmt:execute()
  local ps, n, h, id = self.params, self.np, self.h, self.id
  if not id then error('execute() on a closed statement', 2) end
  -- unrolled up to 4 (oltp_common's statements take 1-4): a loop here
  -- runs once or twice an event, and LuaJIT may start a trace at it and
  -- give up ("leaving loop in root trace") before the event loop's own
  -- trace takes it in
  if n > 0 then arg(0, ps[1].value)
    if n > 1 then arg(1, ps[2].value)
      if n > 2 then arg(2, ps[3].value)
        if n > 3 then arg(3, ps[4].value)
          for i = 5, n do arg(i - 1, ps[i].value) end
        end
      end
    end
  end
  local rc = FC.dbscale_execute(h, id, n)
  if rc ~= 0 then
    local rs = self.con:_check(3, '<prepared statement>', why(rc, h, 3))
    return rs
  end
  return self.rs
end
function stmt:close() if self.id then C.unprepare(self.con.h, self.id); self.id = nil end return 0 end
local con = {}; con.__index = con
con.__tostring = function() return '<sql_connection>' end
-- --db-ignore-errors (or --mysql-ignore-errors): 'all', or the codes
-- (error numbers, SQLSTATEs) that restart the event in place of the
-- engine's defaults; a lost connection reconnects whatever the list
local ign = sysbench.opt.db_ignore_errors or sysbench.opt.mysql_ignore_errors
local ign_all, ign_set = ign == 'all', nil
if ign and not ign_all then
  ign_set = {}
  for c in ign:gmatch('[^,%s]+') do ign_set[c] = true end
end
function con:_check(lvl, query, rs, cls, errno, state, msg)
  if rs ~= nil then return rs end
  local e = {connection = self, query = query, sql_errno = errno, sql_state = state,
    sql_errmsg = msg}
  local was = cls
  if cls == 3 then C.reconnect(self.h); cls = 1
  elseif ign_all then cls = 1
  elseif ign_set then cls = (ign_set[tostring(errno)] or ign_set[state]) and 1 or 2 end
  if cls ~= 1 and type(sysbench.hooks.sql_error_ignorable) == 'function' and
      sysbench.hooks.sql_error_ignorable(e) then cls = 1 end
  if cls == 1 then
    -- the engine rolls back only what it calls ignorable: an aborted
    -- PostgreSQL transaction would fail the restarted event
    if was == 2 and C.driver == 'pgsql' then C.query(self.h, 'ROLLBACK') end
    C.ignored(self.h, state); e.errcode = sysbench.error.RESTART_EVENT; error(e, lvl)
  end
  error(string.format("SQL error, errno = %d, state = '%s': %s", errno, state, msg), lvl)
end
function con:query(sql)
  if type(sql) ~= 'string' then
    if type(sql) ~= 'number' then error("bad argument #1 to 'query' (string expected, got "
      .. type(sql) .. ')', 2) end
    sql = tostring(sql)
  end
  local rc = FC.dbscale_query(self.h, sql)
  if rc ~= 0 then
    local rs = self:_check(3, sql, why(rc, self.h, 3))
    return rs
  end
  return self.rs
end
function con:query_row(sql)
  local rs = self:_check(3, sql, C.query(self.h, sql))
  local row = rs:fetch_row()
  if row == nil then return nil end
  return unpack(row, 1, rs.nfields)
end
function con:prepare(sql)
  local id, cls, errno, state, msg = C.prepare(self.h, sql)
  if id == nil then self:_check(3, sql, nil, cls, errno, state, msg) end
  return setmetatable({con = self, h = self.h, rs = self.rs, id = id, params = {}, np = 0}, stmt)
end
function con:bulk_insert_init(q) self.bq = q; self.bb = {}; self.blen = 0 return 0 end
function con:_bulk_flush()
  if #self.bb == 0 then return end
  local sql = self.bq .. ' ' .. table.concat(self.bb, ',')
  self.bb = {}; self.blen = 0
  self:_check(4, sql, C.query(self.h, sql))
end
function con:bulk_insert_next(v)
  local b = self.bb; b[#b + 1] = v; self.blen = self.blen + #v + 1
  if self.blen >= 524288 then self:_bulk_flush() end
  return 0
end
function con:bulk_insert_done() if self.bq then self:_bulk_flush() end self.bq = nil return 0 end
function con:disconnect() C.disconnect(self.h) return true end
function con:reconnect() C.reconnect(self.h) return self end
local drv = {}; drv.__index = drv
drv.__tostring = function() return '<sql_driver>' end
function drv:name() return self.sname end
function drv:connect()
  local h = C.connect()
  return setmetatable({h = h, rs = C.result(h), drv = self}, con)
end
function sysbench.sql.driver(name)
  if name ~= nil and name ~= C.driver then error('failed to initialize the DB driver', 2) end
  return setmetatable({sname = C.driver}, drv)
end
local function more() return FC.dbscale_more() ~= 0 end
-- sysbench's thread_run without its pcall and inner repeat loop, so
-- the event loop's trace has no pcall frame in it: an error ends
-- thread_run, and lloop.c sees sysbench.error.RESTART_EVENT and calls
-- restart (below), which runs the hook and the same event again. Each
-- statement waits inside its ffi call (lapi_sql.c), so one trace runs this
-- loop, event and all, as in sysbench (tests/integration/lua_jit.sh).
local function run_events(thread_id, again)
  while again or more() do
    if not again then FC.dbscale_ev_start() end
    again = false
    if event(thread_id) then break end
    FC.dbscale_ev_stop()
  end
end
function thread_run(thread_id) return run_events(thread_id, false) end
local reg = debug.getregistry()
reg['dbscale.thread_run'] = thread_run
-- the hook's own errors end the run, as they did outside sysbench's
-- pcall: one that would restart (an ignorable SQL error) becomes its
-- message, so lloop.c does not take it for the event's
reg['dbscale.restart'] = function(thread_id, e)
  local h = sysbench.hooks.before_restart_event
  if h then
    local ok, err = pcall(h, e)
    if not ok then
      if type(err) == 'table' then err = tostring(rawget(err, 'sql_errmsg') or err) end
      error(err, 0)
    end
  end
  return run_events(thread_id, true)
end
function sysbench.report_default(stat)
  local s = stat.time_interval
  print(string.format('[ %.0fs ] thds: %u tps: %4.2f qps: %4.2f (r/w/o: %4.2f/%4.2f/%4.2f) lat (ms,%u%%): %4.2f err/s %4.2f reconn/s: %4.2f', stat.time_total, stat.threads_running,
    stat.events / s, (stat.reads + stat.writes + stat.other) / s, stat.reads / s,
    stat.writes / s, stat.other / s, sysbench.opt.percentile or 95, stat.latency_pct * 1000,
    stat.errors / s, stat.reconnects / s))
end
function sysbench.report_csv(stat)
  local s = stat.time_interval
  print(string.format('%.0f,%u,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f,%4.2f',
    stat.time_total, stat.threads_running, stat.events / s,
    (stat.reads + stat.writes + stat.other) / s, stat.reads / s, stat.writes / s,
    stat.other / s, stat.latency_pct * 1000, stat.errors / s, stat.reconnects / s))
end
-- sysbench's layout: one JSON array per state, "[" before the first
-- entry, ",\n" between, "\n]\n" when the state is closed (a proxy's
-- __gc, as sysbench does it)
local json_open
function sysbench.report_json(stat)
  if not json_open then
    io.write('[\n')
    json_open = newproxy(true)
    getmetatable(json_open).__gc = function() io.write('\n]\n') end
  else io.write(',\n') end
  local s = stat.time_interval
  io.write(string.format('  {\n    "time": %4.0f,\n    "threads": %u,\n    "tps": %4.2f,\n    "qps": {\n      "total": %4.2f,\n      "reads": %4.2f,\n      "writes": %4.2f,\n      "other": %4.2f\n    },\n    "latency": %4.2f,\n    "errors": %4.2f,\n    "reconnects": %4.2f\n  }', stat.time_total,
    stat.threads_running, stat.events / s, (stat.reads + stat.writes + stat.other) / s,
    stat.reads / s, stat.writes / s, stat.other / s, stat.latency_pct * 1000,
    stat.errors / s, stat.reconnects / s))
end
-- print as one write a line: the loops' states print at once (each
-- thread_done, say), and Lua's own print writes each argument and the
-- newline apart, so their lines ran into each other
do
  local select, concat, out = select, table.concat, io.stdout
  function print(...)
    local n, t = select('#', ...), {}
    for i = 1, n do t[i] = tostring((select(i, ...))) end
    out:write(concat(t, '\t', 1, n) .. '\n')
  end
end
thread_id = sysbench.tid
sb_rand = sysbench.rand.default
sb_rand_str = sysbench.rand.string
sb_rand_uniform = sysbench.rand.uniform
sb_rand_gaussian = sysbench.rand.gaussian
sb_rand_special = sysbench.rand.special
function sb_rnd() return tonumber(sysbench.rand.uniform_uint64() % 4294967296) end
function sb_rand_uniq(a, b)
  a = a or 0; b = b or 4294967295
  local r
  repeat r = sysbench.rand.unique() until r >= a and r <= b
  return r
end
