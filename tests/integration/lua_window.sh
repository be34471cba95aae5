#!/bin/sh
# integration: alone
# A scripted run's window ends with its events, as a built-in level's does
# with its deadline: thread_done (here 1.5 s of blocking sleep, as a script's
# os.execute would take) and the closing of the connections' states come
# after it, so they add neither time nor client CPU to the figures. The old
# window ran until every loop had closed its states: 2 s of events were
# reported over 3.5 s, and TPS fell with the teardown.
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
cat >"$work/slowdone.lua" <<'LUA'
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT 1") end
function thread_done() os.execute("sleep 1.5"); con:disconnect() end
LUA
num() { sed -n "s/.*\"$1\": \([0-9.e+-]*\).*/\1/p" "$work/out" | head -n 1; }
"$DBSCALE" "$work/slowdone.lua" $SERVER_OPTS --threads=2 --time=2 --output=json run \
    >"$work/out" 2>&1 || fail "run failed: $(cat "$work/out")"
t=$(num time_s) txns=$(num transactions) tps=$(num tps)
t2=$t
[ "${txns:-0}" -gt 0 ] || fail "no transactions: $(cat "$work/out")"
# the window lasts --time (it cannot be shorter) and ends with the events:
# with thread_done's 1.5 s sleep inside it, it would last 3.5 s at least.
# The bound is that failure, not a speed a loaded machine could miss.
awk -v t="$t" 'BEGIN { exit !(t >= 1.999 && t < 3.5) }' ||
    fail "--time=2 reported over $t s: thread_done and the teardown were in the window"
awk -v n="$txns" -v tps="$tps" -v t="$t" 'BEGIN { d = n / t - tps; exit !(d < 0.01 * tps && d > -0.01 * tps) }' ||
    fail "tps $tps is not transactions $txns over $t s"
# a run whose events end before its deadline (--events) ends there too
"$DBSCALE" "$work/slowdone.lua" $SERVER_OPTS --threads=2 --events=200 --time=0 --output=json run \
    >"$work/out" 2>&1 || fail "--events run failed: $(cat "$work/out")"
expect_eq "--events=200: transactions" "$(num transactions)" 200
t=$(num time_s)
# (thread_done's 1.5 s sleep inside the window would make it 1.5 s at least)
awk -v t="$t" 'BEGIN { exit !(t > 0 && t < 1.5) }' || fail "--events=200 reported over $t s (thread_done sleeps 1.5 s)"
echo "lua_window: --time=2 gave a $t2 s window, --events=200 one of $t s, thread_done outside both"

# The ramp: the window opens once every connection has finished an event
# (each one's first here takes 1 s at the server, as 1024 fresh backends
# take seconds to answer their first statements). A 0.8 s window opened at
# once counted the 4 slow events and nothing else.
cat >"$work/cold.lua" <<'LUA'
function thread_init() con = sysbench.sql.driver():connect(); cold = true end
function event()
   if cold then cold = false; con:query("SELECT pg_sleep(1)") else con:query("SELECT 1") end
end
LUA
"$DBSCALE" "$work/cold.lua" $SERVER_OPTS --threads=4 --time=0.8 --output=json run \
    >"$work/out" 2>&1 || fail "ramp: $(cat "$work/out")"
# The window opened after the cold events (the ramp took their 1 s at
# least) and held none of them (each took 1 s: a latency that long would be
# one), and it counted warm events: no count a slow machine could miss.
txns=$(num transactions)
[ "${txns:-0}" -gt 0 ] || fail "ramp: a 0.8 s window after the cold events counted ${txns:-0}: $(cat "$work/out")"
awk -v r="$(num ramp_s)" 'BEGIN { exit !(r >= 0.999) }' ||
    fail "ramp: the window opened before the 1 s cold events had ended (ramp_s): $(cat "$work/out")"
awk -v m="$(sed -n 's/.*"max": \([0-9.]*\).*/\1/p' "$work/out")" 'BEGIN { exit !(m > 0 && m < 1000) }' ||
    fail "ramp: a cold (1 s) event inside the window: $(cat "$work/out")"
grep -q '"disturbed": false' "$work/out" || fail "ramp: disturbed: $(cat "$work/out")"
"$DBSCALE" "$work/cold.lua" $SERVER_OPTS --threads=4 --time=1 --ramp-timeout=0.3 run \
    >"$work/out" 2>&1 || fail "ramp timeout: $(cat "$work/out")"
grep -q "level disturbed: .*4 connections without a first transaction after 0.3s" "$work/out" ||
    fail "ramp timeout not marked: $(cat "$work/out")"
echo "lua_window: the window opened after every connection's first event ($txns counted)"
