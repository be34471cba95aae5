#!/bin/sh
# A hung server (SIGSTOPped) cannot hold a scripted run past its --time:
# the events still waiting for a reply a grace after the end are given up,
# counted unfinished and the run is flagged disturbed (PostgreSQL).
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql
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
"$DBSCALE" "$work/nodone.lua" $SERVER_OPTS --threads=4 --time=2 --output=json run >"$work/out" 2>&1 &
pid=$!
sleep 1
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
