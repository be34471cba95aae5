#!/bin/sh
# Third-party sysbench kits run unchanged. Such kits declare ffi functions in
# sysbench's own types (`void sb_counter_inc(int, sb_counter_type);`) and
# read its enum constants through ffi.C, so dbscale must have made every
# ffi declaration sysbench 1.0.20's internal Lua makes before a script runs:
#  1. every type, enum constant and function declared by the ffi.cdef blocks
#     inside the installed sysbench binary is declared here too (the list is
#     read from the binary, and the same probe passes under sysbench), and
#     the functions a script may call are defined;
#  2. a script's own thread_run over sb_more_events / sb_event_start /
#     sb_event_stop, sb_rand_* and sysbench.histogram through the ffi; an
#     option typed sysbench.cmdline.ARG_SIZE takes 2K as 2048;
#  3. tests/integration/lua/kit (a small TPC-C-like kit written like the
#     third-party ones: its own options, a parallel prepare waiting with
#     usleep, a parallel `check` command, sb_counter_inc(SB_CNT_ERROR) on a
#     rollback) on PostgreSQL and MariaDB: prepare with --scale and
#     --use_fk, run, check, cleanup; and sysbench itself runs the same kit
#     on the same tables, so the kit is one sysbench users would have.
. "$(dirname "$0")/lib.sh" "$1"
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
KIT=$(cd "$(dirname "$0")/lua/kit" && pwd)/kit.lua
SYSBENCH=
have_tool sysbench sysbench && SYSBENCH=$(command -v sysbench)

# ---- 1. sysbench's declarations, read from its binary ----
if [ -n "$SYSBENCH" ]; then
    python3 - "$SYSBENCH" >"$work/names" <<'PY' || fail "cannot read sysbench's ffi.cdef blocks"
import re, sys
data = open(sys.argv[1], 'rb').read()
names = {'type': set(), 'const': set(), 'func': set()}
pos = 0
while True:
    i = data.find(b'ffi.cdef[[', pos)
    if i < 0:
        break
    j = data.find(b']]', i)
    text = data[i + 10:j].decode('latin-1')
    pos = j
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    for body in re.findall(r'enum\s*\w*\s*\{([^}]*)\}', text):
        names['const'].update(x.split('=')[0].strip() for x in body.split(',') if x.strip())
    text = re.sub(r'\{[^{}]*\}', '{}', text)
    for stmt in text.split(';'):
        s = ' '.join(stmt.split())
        if not s:
            continue
        m = (re.match(r'typedef .*?(\w+)\s*\([^()]*\)$', s) or re.match(r'typedef .*?(\w+)$', s))
        if m:
            names['type'].add(m.group(1))
            continue
        m = re.match(r'[\w\s*]*?(\w+)\s*\([^()]*\)$', s)
        if not m:
            sys.exit('cannot read the declaration: ' + s)
        names['func'].add(m.group(1))
if len(names['type']) < 10 or len(names['const']) < 20 or len(names['func']) < 30:
    sys.exit('too few declarations found: %s' % {k: len(v) for k, v in names.items()})
for k in sorted(names):
    for n in sorted(names[k]):
        print(k, n)
PY
    {
        echo 'local ffi = require("ffi")'
        echo 'local names = {'
        sed 's/^\([a-z]*\) \(.*\)$/  {"\1", "\2"},/' "$work/names"
        cat <<'LUA'
}
function probe()
   local missing, undefined = {}, {}
   for _, n in ipairs(names) do
      local kind, name = n[1], n[2]
      if kind == "type" then
         if not pcall(ffi.typeof, name) then missing[#missing + 1] = name end
      else
         local ok, e = pcall(function() return ffi.C[name] end)
         if not ok and not tostring(e):find("undefined symbol", 1, true) then
            missing[#missing + 1] = name
         elseif not ok then
            undefined[#undefined + 1] = name
         end
         -- an enum constant cannot be declared twice, here as under sysbench
         if kind == "const" and pcall(ffi.cdef, "typedef enum { " .. name .. " } x_" .. name .. ";") then
            missing[#missing + 1] = name .. "(redefinable)"
         end
      end
   end
   print("DECLARED " .. #names - #missing .. " OF " .. #names)
   print("MISSING " .. table.concat(missing, " "))
   print("UNDEFINED " .. table.concat(undefined, " "))
   print("FFI-GLOBAL " .. tostring(rawget(_G, "ffi") ~= nil))
end
sysbench.cmdline.commands = {probe = {probe}}
LUA
    } >"$work/probe.lua"
    n=$(wc -l <"$work/names")
    out=$("$SYSBENCH" "$work/probe.lua" probe 2>&1) || fail "the probe under sysbench: $out"
    echo "$out" | grep -qx "DECLARED $n OF $n" || fail "the probe is wrong under sysbench itself: $out"
    out=$("$DBSCALE" "$work/probe.lua" probe 2>&1) || fail "the probe under dbscale: $out"
    echo "$out" | grep -qx "DECLARED $n OF $n" || fail "sysbench's declarations missing: $out"
    echo "$out" | grep -qx "FFI-GLOBAL true" || fail "ffi is not a global, as sysbench leaves it: $out"
    # declared only: sysbench's C driver interface (dbscale's SQL objects
    # are Lua tables) and its option table; every other function is callable
    undef=$(echo "$out" | sed -n 's/^UNDEFINED //p' | tr ' ' '\n' |
        grep -v -e '^db_' -e '^sb_lua_set_test_args$' -e '^sb_print_test_options$' | tr '\n' ' ')
    expect_eq "sysbench functions declared but not callable" "$undef" ""
    echo "lua_kit: all $n of sysbench's ffi declarations made before the script runs"
else
    echo "lua_kit: sysbench not installed, its declarations not compared"
fi

# an option's explicit type, sysbench.cmdline.ARG_*, wins over its default's
cat >"$work/argtypes.lua" <<'LUA'
sysbench.cmdline.options = {
   rows = {"rows", 10, sysbench.cmdline.ARG_SIZE},
   n = {"an integer", 3, sysbench.cmdline.ARG_INT},
}
function show() print("OPT", sysbench.opt.rows, sysbench.opt.n) end
sysbench.cmdline.commands = {show = {show}}
LUA
out=$("$DBSCALE" "$work/argtypes.lua" --rows=2K --n=7 show 2>&1) || fail "argtypes.lua: $out"
echo "$out" | grep -qx "OPT	2048	7" || fail "ARG_SIZE / ARG_INT options: $out"
echo "lua_kit: sysbench.cmdline.ARG_SIZE takes --rows=2K as 2048, as sysbench does"

start_server pgsql >/dev/null

# ---- 2. the callable functions: pacing, draws, histogram ----
cat >"$work/own_loop.lua" <<'LUA'
function thread_init() con = sysbench.sql.driver():connect() end
function event()
   con:query("SELECT 1")
   local v = ffi.C.sb_rand_uniform(5, 9)
   assert(v >= 5 and v <= 9, "sb_rand_uniform out of range: " .. tostring(v))
   local buf = ffi.new("char[6]")
   ffi.C.sb_rand_str("ab#@-", buf)
   assert(ffi.string(buf, 5):match("^ab%d%a%-$"), "sb_rand_str: " .. ffi.string(buf, 5))
   local d = ffi.C.sb_rand_uniform_double()
   assert(d >= 0 and d < 1)
   hist = hist or sysbench.histogram.new(8, 1, 100)
   hist:update(v)
end
-- sysbench's own loop, written out as scripts that replace it do
function thread_run(thread_id)
   while ffi.C.sb_more_events(thread_id) do
      ffi.C.sb_event_start(thread_id)
      event(thread_id)
      ffi.C.sb_event_stop(thread_id)
   end
end
function thread_done() hist:print() end
LUA
out=$("$DBSCALE" "$work/own_loop.lua" $SERVER_OPTS --events=40 --time=0 --output=json run 2>&1) ||
    fail "own_loop.lua: $out"
expect_eq "own thread_run over sb_more_events: transactions" \
    "$(echo "$out" | sed -n 's/.*"transactions": \([0-9]*\).*/\1/p')" 40
echo "$out" | grep -q 'value  ------------- distribution ------------- count' ||
    fail "sysbench.histogram's print: $out"
total=$(echo "$out" | awk '/^ *[0-9.]+ \|\**/ { s += $NF } END { print s + 0 }')
expect_eq "histogram rows add up to the updates" "$total" 40
echo "lua_kit: sb_more_events/sb_event_*, sb_rand_*, sysbench.histogram through the ffi"

# ---- 3. the kit, on both engines ----
kit_tables() {
    db_sql "SELECT count(*) FROM information_schema.tables WHERE table_name IN
        ('warehouse', 'district', 'customer', 'history', 'orders', 'new_order', 'order_line',
         'item', 'stock') AND table_schema = $1"
}

run_kit() {
    e=$SERVER_ENGINE
    case $e in pgsql) here="current_schema()" ;; *) here="database()" ;; esac
    ok "$DBSCALE" "$KIT" $SERVER_OPTS --threads=2 --scale=2 --use_fk=1 prepare
    expect_eq "$e: kit tables after prepare" "$(kit_tables "$here")" 9
    fks=$(db_sql "SELECT count(*) FROM information_schema.table_constraints
        WHERE constraint_type = 'FOREIGN KEY' AND table_schema = $here")
    [ "$fks" -ge 8 ] || fail "$e: --use_fk=1 made $fks foreign keys, want 8 or more"
    out=$("$DBSCALE" "$KIT" $SERVER_OPTS --threads=4 --scale=2 --rollback_pct=20 --events=300 \
        --time=0 --output=json run 2>&1) || fail "$e: kit run: $out"
    expect_eq "$e: kit transactions" "$(echo "$out" | sed -n 's/.*"transactions": \([0-9]*\).*/\1/p')" 300
    errs=$(echo "$out" | sed -n 's/.*"errors": \([0-9]*\).*/\1/p')
    [ "${errs:-0}" -ge 1 ] || fail "$e: the kit's rollbacks (sb_counter_inc SB_CNT_ERROR) not counted: $out"
    out=$("$DBSCALE" "$KIT" $SERVER_OPTS --threads=2 --scale=2 check 2>&1) || fail "$e: kit check: $out"
    expect_eq "$e: kit checks passed" "$(echo "$out" | grep -c 'PASSED$')" 8
    echo "$out" | grep FAILED && fail "$e: kit check failed: $out"
    if [ -n "$SYSBENCH" ]; then
        pw=$(server_password)
        sb="--db-driver=$e --$e-host=127.0.0.1 --$e-port=$SERVER_PORT --$e-user=$SERVER_USER"
        sb="$sb --$e-password=$pw --$e-db=$SERVER_DB"
        out=$(cd "$(dirname "$KIT")" && "$SYSBENCH" ./kit.lua $sb --threads=2 --scale=2 \
            --events=100 --time=0 run 2>&1) || fail "$e: the kit under sysbench: $out"
        out=$("$DBSCALE" "$KIT" $SERVER_OPTS --scale=2 check 2>&1) || fail "$e: kit check: $out"
        expect_eq "$e: kit checks passed after sysbench's run" "$(echo "$out" | grep -c 'PASSED$')" 8
    fi
    ok "$DBSCALE" "$KIT" $SERVER_OPTS cleanup
    expect_eq "$e: kit tables after cleanup" "$(kit_tables "$here")" 0
    echo "lua_kit: the kit on $e: prepare --scale=2 --use_fk=1, run ($errs errors), check, cleanup"
}

run_kit
stop_server
if have_engine mysql; then
    start_server mysql >/dev/null
    run_kit
fi
echo "lua_kit: ok"
