#!/bin/sh
# A hung server (SIGSTOPped) cannot hold a scripted run past its --time:
# the events still waiting for a reply a grace after the end are given up,
# counted unfinished and the run is flagged disturbed (PostgreSQL); a
# freeze the server comes back from is flagged as a stall, as in a
# built-in level. Nor can an event that never returns to dbscale (a loop
# without a database call).
. "$(dirname "$0")/lib.sh" "$1"
# pg_stat_statements: a counter that moves at once, to freeze inside a level
start_server pgsql --conf shared_preload_libraries=pg_stat_statements
S=$(dirname "$0")/lua/count.lua
work=$(mktemp -d)
server_pids() {
    echo "$SERVER_PID"
    ps -o pid= --ppid "$SERVER_PID" 2>/dev/null
}
freeze() { for p in $(server_pids); do kill -STOP "$p" 2>/dev/null; done; }
thaw() { for p in $(server_pids); do kill -CONT "$p" 2>/dev/null; done; }
at_exit 'thaw; rm -rf "$work"'
ok "$DBSCALE" "$S" $SERVER_OPTS prepare
# no thread_done, so nothing is left to do once the events are given up
sed '/^function thread_done/,$d' "$S" >"$work/nodone.lua"
base=$(server_statements)
"$DBSCALE" "$work/nodone.lua" $SERVER_OPTS --threads=4 --time=2 --output=json run >"$work/out" 2>&1 &
pid=$!
wait_statements "$base" 12 $pid "the 2 s scripted run"
freeze
i=0
while kill -0 $pid 2>/dev/null && [ $i -lt 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
if kill -0 $pid 2>/dev/null; then
    thaw
    kill -KILL $pid
    fail "the scripted run still ran 10 s after its server hung"
fi
wait $pid || fail "run failed: $(cat "$work/out")"
thaw
grep -q '"unfinished": 4' "$work/out" || fail "want 4 unfinished: $(cat "$work/out")"
grep -q '"disturbed": true' "$work/out" || fail "not flagged disturbed: $(cat "$work/out")"
echo "lua_hung: a hung server's 4 events given up, the run ended on time"

# A server that stops answering for 1.5 s inside the window and comes back:
# nothing is given up, and the run is flagged disturbed by the stall, as a
# built-in level is (client/window.h)
# (the 1.5 s is the freeze itself, not a wait for something; the stall is
# checked against the freeze as this test measured it, the reply after the
# thaw given 0.5 s)
base=$(server_statements)
"$DBSCALE" "$work/nodone.lua" $SERVER_OPTS --threads=4 --time=3.5 --output=json run >"$work/out" 2>&1 &
pid=$!
wait_statements "$base" 12 $pid "the 3.5 s scripted run"
t0=$(date +%s.%N)
freeze
sleep 1.5
thaw
t1=$(date +%s.%N)
wait $pid || fail "run with a 1.5 s freeze failed: $(cat "$work/out")"
grep -q '"unfinished": 0' "$work/out" || fail "a freeze that ended gave up events: $(cat "$work/out")"
st=$(sed -n 's/.*"disturbed": true, "disturbed_why": "stall \([0-9.]*\)s.*/\1/p' "$work/out")
[ -n "$st" ] || fail "a 1.5 s freeze not flagged as a stall: $(cat "$work/out")"
awk -v s="$st" -v f="$(echo "$t1 - $t0" | bc)" 'BEGIN { exit !(s >= 1 && s <= f + 0.5) }' ||
    fail "a stall of $st s for a freeze of $(echo "$t1 - $t0" | bc) s: $(cat "$work/out")"
echo "lua_hung: a 1.5 s freeze flagged: $(sed -n 's/.*"disturbed_why": "\([^"]*\)".*/\1/p' "$work/out")"

# An event that never gives its loop back (compiled by LuaJIT, so no debug
# hook runs in it) cannot hold the run past --time, a SIGINT, or the
# machine's memory: the run is abandoned with the script, function and line.
cat >"$work/busy.lua" <<'LUA'
function thread_init() con = sysbench.sql.driver():connect() end
function event()
   while true do end
end
LUA
cat >"$work/alloc.lua" <<'LUA'
function thread_init() con = sysbench.sql.driver():connect() end
function event()
   local t = {}
   while true do t[#t + 1] = {1, 2, 3} end
end
LUA
# ends_within SECONDS CMD...: runs CMD in the background; its exit code
ends_within() {
    lim=$1
    shift
    "$@" >"$work/out" 2>&1 &
    p=$!
    i=0
    while kill -0 $p 2>/dev/null && [ $i -lt $((lim * 10)) ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if kill -0 $p 2>/dev/null; then
        kill -KILL $p
        fail "still running ${lim}s later: $*: $(tail -3 "$work/out")"
    fi
    wait $p
}
R="--threads=2 --ramp-timeout=0.5"
ends_within 8 "$DBSCALE" "$work/busy.lua" $SERVER_OPTS $R --time=1 run
expect_eq "an event that never returns: exit" $? 1
grep -q "busy.lua:2: event() of connection .* past the run's end .*abandoned" "$work/out" ||
    fail "no script, function and line: $(tail -3 "$work/out")"
stdbuf -oL "$DBSCALE" "$work/busy.lua" $SERVER_OPTS $R --time=60 run >"$work/out" 2>&1 &
p=$!
# SIGINT once the events run (their loops never give back)
i=0
until grep -q '^Threads started!' "$work/out"; do
    i=$((i + 1))
    [ $i -lt 300 ] && kill -0 $p 2>/dev/null || fail "busy.lua never started: $(cat "$work/out")"
    sleep 0.1
done
kill -INT $p
i=0
while kill -0 $p 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
kill -0 $p 2>/dev/null && { kill -KILL $p; fail "SIGINT did not end a never-returning event in 5 s"; }
wait $p
expect_eq "an event that never returns, SIGINT: exit" $? 130
DBSCALE_LUA_MEM_MB=300 ends_within 10 "$DBSCALE" "$work/alloc.lua" $SERVER_OPTS $R --time=60 run
expect_eq "an event that allocates without end: exit" $? 1
grep -q "memory reached .* MB .*: the run was stopped" "$work/out" || fail "no memory message: $(tail -3 "$work/out")"
echo "lua_hung: events that never return end on --time, SIGINT and the memory limit"
