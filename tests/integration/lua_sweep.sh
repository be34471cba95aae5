#!/bin/sh
# A Lua script as a sweep's workload on a real throwaway PostgreSQL: every
# level runs the script's run and gives a row like a built-in workload's
# (results.csv; meta.json names the script's path); the same from a config
# file's workload=; a script that fails at a level (an error, or os.exit)
# keeps the levels before it; sysbench's own scripts sweep unchanged.
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'

# its own table (prepare, as a managed sweep would run it), its own option
cat >"$work/mine.lua" <<'LUA'
sysbench.cmdline.options = {rows = {"rows in lua_sw", 50}}
function prepare()
   local con = sysbench.sql.driver():connect()
   con:query("DROP TABLE IF EXISTS lua_sw")
   con:query("CREATE TABLE lua_sw (id INT PRIMARY KEY)")
   con:query("INSERT INTO lua_sw SELECT generate_series(1, " .. sysbench.opt.rows .. ")")
end
function thread_init()
   con = sysbench.sql.driver():connect()
   -- the CPUs this connection's thread may run on, for the test to compare
   if sysbench.opt.cpus_file ~= "" then
      local f, seen = io.open("/proc/thread-self/status"), "?"
      for l in f:lines() do seen = l:match("^Cpus_allowed_list:%s*(%S+)") or seen end
      f:close()
      local o = io.open(sysbench.opt.cpus_file, "a")
      o:write(seen, "\n")
      o:close()
   end
end
function event()
   assert(sysbench.opt.rows == 7)
   con:query_row("SELECT id FROM lua_sw WHERE id = " .. sysbench.rand.uniform(1, 7))
   -- a failing level: anything past 2 threads
   if sysbench.opt.threads > 2 and sysbench.opt.fail_wide then error("too wide") end
end
LUA
sed -i '1s/.*/sysbench.cmdline.options = {rows = {"rows in lua_sw", 50}, fail_wide = {"fail above 2 threads", false}, cpus_file = {"append the allowed CPUs here", ""}}/' "$work/mine.lua"
common="$SERVER_OPTS --server=external --cpus=all --repeats=1 --time=1 --report=off --rows=7"

"$DBSCALE" sweep --workload="$work/mine.lua" $common --prepare=on --threads=1,2 \
    --out "$work/r1" >"$work/log1" 2>&1 || fail "sweep of mine.lua failed: $(cat "$work/log1")"
[ -f "$work/r1/results.csv" ] || fail "no results.csv: $(cat "$work/log1")"
rows=$(awk -F, 'NR > 1' "$work/r1/results.csv" | wc -l)
expect_eq "levels in results.csv" "$rows" 2
# the workload column is the script's name; every level did transactions
col() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { print $k }' "$2"; }
expect_eq "workload column" "$(col workload "$work/r1/results.csv" | sort -u)" mine
expect_eq "thread levels" "$(col threads "$work/r1/results.csv" | tr '\n' ' ')" "1 2 "
for t in $(col tps "$work/r1/results.csv"); do
    awk -v t="$t" 'BEGIN { exit !(t > 0) }' || fail "a level with tps $t"
done
grep -q "\"workload\": \"$work/mine.lua\"" "$work/r1/meta.json" ||
    fail "meta.json does not name the script's path: $(grep workload "$work/r1/meta.json")"
# the latency histogram of every level beside the rows, as a built-in's
expect_eq "latency.csv levels" "$(col threads "$work/r1/latency.csv" | sort -u | tr '\n' ' ')" "1 2 "
echo "sweep --workload=mine.lua: $rows levels"

# sysbench's own script, unchanged: oltp_common.lua stops a script loaded
# without a command, so the option probe loads it as the levels run it
SB_LUA=/usr/share/sysbench/oltp_point_select.lua
if [ -f "$SB_LUA" ]; then
    "$DBSCALE" sweep "$SB_LUA" $SERVER_OPTS --server=external --cpus=all --repeats=1 --time=1 \
        --report=off --prepare=on --tables=1 --table-size=100 --threads=1 --out "$work/r0" \
        >"$work/log0" 2>&1 || fail "sweep of sysbench's $SB_LUA failed: $(tail -3 "$work/log0")"
    expect_eq "sysbench script: levels" "$(awk -F, 'NR > 1' "$work/r0/results.csv" | wc -l)" 1
    echo "sweep $SB_LUA: ok"
fi

# a config file's workload= a .lua, the script's option there too
printf 'workload = %s\nthreads = 1\nrows = 7\n' "$work/mine.lua" >"$work/c.ini"
"$DBSCALE" sweep --config "$work/c.ini" $SERVER_OPTS --server=external --cpus=all --repeats=1 \
    --time=1 --report=off --out "$work/r2" >"$work/log2" 2>&1 ||
    fail "sweep --config with workload=mine.lua failed: $(cat "$work/log2")"
expect_eq "config: levels" "$(awk -F, 'NR > 1' "$work/r2/results.csv" | wc -l)" 1
echo "sweep --config (workload = mine.lua): ok"

# fails at 4 threads: exit 1, the message names the script and line, the
# two finished levels stay on disk
set +e
"$DBSCALE" sweep --workload="$work/mine.lua" $common --fail-wide --threads=1,2,4 \
    --out "$work/r3" >"$work/log3" 2>&1
rc=$?
set -e
expect_eq "failing script: exit" "$rc" 1
grep -q "mine.lua:24: too wide" "$work/log3" || fail "no script line in: $(cat "$work/log3")"
expect_eq "failing script: levels kept" "$(awk -F, 'NR > 1' "$work/r3/results.csv" | wc -l)" 2

# os.exit(0) in a level's event: not a quiet exit 0 with no rows, but the
# level failing with the script's line, the levels before it kept
printf 'function thread_init() con = sysbench.sql.driver():connect() end\nfunction event()\n  con:query("SELECT 1")\n  if sysbench.opt.threads > 1 then os.exit(0) end\nend\n' >"$work/exits.lua"
set +e
"$DBSCALE" sweep --workload="$work/exits.lua" $SERVER_OPTS --server=external --cpus=all --repeats=1 \
    --time=0.5 --report=off --threads=1,2 --out "$work/rx" >"$work/logx" 2>&1
rc=$?
set -e
expect_eq "os.exit(0) in a level: exit" "$rc" 1
grep -q "exits.lua:4: os.exit(0) called" "$work/logx" || fail "os.exit(0): $(cat "$work/logx")"
expect_eq "os.exit(0) in a level: levels kept" "$(awk -F, 'NR > 1' "$work/rx/results.csv" | wc -l)" 1

# what a scripted level cannot honour yet is refused, not ignored (exit 2)
IT_WATCH=$work
for bad in --db-debug; do
    set +e
    refuses 2 "${bad%%=*} is not supported for Lua scripts" \
        "$DBSCALE" sweep --workload="$work/mine.lua" $common $bad --out "$work/rbad"
    set -e
done

# --warmup-time runs the script uncounted first: the level's window (its
# time_s, and the server CPU taken at its edges) is --time alone
"$DBSCALE" sweep --workload="$work/mine.lua" $SERVER_OPTS --server=external --cpus=all --repeats=1 \
    --time=1 --warmup-time=1 --report=off --rows=7 --threads=2 --out "$work/rw" >"$work/logw" 2>&1 ||
    fail "sweep of mine.lua --warmup-time=1 failed: $(cat "$work/logw")"
t=$(col time_s "$work/rw/results.csv")
# at least --time, and short of warmup + time (2 s): the warmup inside the
# window is what this catches, not a slow machine
awk -v t="$t" 'BEGIN { exit !(t >= 0.999 && t < 2) }' || fail "--warmup-time=1 --time=1: a window of $t s"
[ -n "$(col server_cpu_s "$work/rw/results.csv")" ] || fail "--warmup-time=1: no server CPU in the row"
echo "sweep --warmup-time=1 over mine.lua: a $t s window"

# --rate paces a scripted level as a built-in one: 20 events/s over 2 s is
# no more than a few dozen transactions a second (unpaced: thousands). Only
# an upper bound: a slow machine cannot make a paced level faster (its
# accuracy is measured in bench/timing.sh)
"$DBSCALE" sweep --workload="$work/mine.lua" $SERVER_OPTS --server=external --cpus=all --repeats=1 \
    --time=2 --report=off --rows=7 --threads=2 --rate=20 --out "$work/rr" >"$work/logr" 2>&1 ||
    fail "sweep of mine.lua --rate=20 failed: $(cat "$work/logr")"
t=$(col tps "$work/rr/results.csv")
awk -v t="$t" 'BEGIN { exit !(t > 0 && t <= 40) }' || fail "--rate=20: a level of $t tps"
echo "sweep --rate=20 over mine.lua: $t tps"

# the server held to CPU 0, the client to CPU 1: the script's threads run on
# the client CPUs the row names, as a built-in level's loops do
if [ "$(nproc)" -ge 2 ]; then
    "$DBSCALE" sweep --workload="$work/mine.lua" $common --cpus=1 --client-cpus=1 --threads=2 \
        --cpus-file="$work/seen" --out "$work/r4" >"$work/log4" 2>&1 ||
        fail "sweep --cpus=1 of mine.lua failed: $(cat "$work/log4")"
    want=$(col client_cpus "$work/r4/results.csv")
    expect_eq "client CPUs the script's threads saw" "$(sort -u "$work/seen")" "$want"
    echo "sweep --cpus=1: the script ran on client CPUs $want"
fi
echo "lua_sweep: ok"
