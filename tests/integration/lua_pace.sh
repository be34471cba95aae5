#!/bin/sh
# integration: alone
# --warmup-time and --rate for scripts on the loop shape (lua/count.lua,
# whose connections count every event they run at the server): warmup
# events run but are not reported (nor take any of --events' N); --rate
# paces events from one Poisson stream, and --events still ends the run at
# exactly that many; with --report-interval the periods carry sysbench's
# queue line.
. "$(dirname "$0")/lib.sh" "$1"
start_server pgsql
S=$(dirname "$0")/lua/count.lua
ok "$DBSCALE" "$S" $SERVER_OPTS prepare
out=$(mktemp)
at_exit 'rm -f "$out"'
num() { sed -n "s/.*\"$1\": \([0-9]*\).*/\1/p" "$out" | head -n 1; }

"$DBSCALE" "$S" $SERVER_OPTS --threads=2 --warmup-time=1 --time=1 --output=json run >"$out" 2>&1 ||
    fail "warmup run failed: $(cat "$out")"
txns=$(num transactions)
ran=$(pg_sql "SELECT sum(events) FROM lua_counts")
[ "${txns:-0}" -gt 0 ] || fail "no transaction counted after the warmup"
[ "$ran" -gt "$txns" ] || fail "warmup: $ran events ran, $txns reported: the warmup was counted"
# one read per event; an event straddling the window's edge may have its
# read before the baseline
reads=$(num reads)
[ "$reads" -le "$txns" ] && [ "$reads" -ge $((txns - 2)) ] || fail "reads $reads for $txns transactions"

# --events with a warmup: the N are counted inside the window, as a
# built-in run counts them; the warmup's events take none of them (they
# once took all: a 1 s warmup left 0 of 300 to report)
pg_sql "TRUNCATE lua_counts" >/dev/null
"$DBSCALE" "$S" $SERVER_OPTS --threads=2 --warmup-time=1 --events=300 --time=0 --output=json run \
    >"$out" 2>&1 || fail "warmup run with --events failed: $(cat "$out")"
expect_eq "--warmup-time=1 --events=300: transactions" "$(num transactions)" 300
ran=$(pg_sql "SELECT sum(events) FROM lua_counts")
[ "$ran" -gt 300 ] || fail "--warmup-time=1 --events=300: the server saw $ran events, the warmup's missing"

pg_sql "TRUNCATE lua_counts" >/dev/null
"$DBSCALE" "$S" $SERVER_OPTS --threads=4 --rate=200 --events=30 --time=0 --output=json run \
    >"$out" 2>&1 || fail "rate run with --events failed: $(cat "$out")"
expect_eq "--rate with --events=30: transactions" "$(num transactions)" 30
expect_eq "--rate with --events=30: events the server saw" \
    "$(pg_sql "SELECT sum(events) FROM lua_counts")" 30

"$DBSCALE" "$S" $SERVER_OPTS --threads=4 --rate=20 --time=2 --output=json run >"$out" 2>&1 ||
    fail "rate run failed: $(cat "$out")"
txns=$(num transactions)
# 40 expected; unpaced this script does thousands in 2 s. Only an upper
# bound, which no slow machine can break (bench/timing.sh measures how
# close to the rate a paced run comes)
[ "${txns:-0}" -ge 1 ] && [ "$txns" -le 400 ] || fail "--rate=20 for 2 s gave $txns transactions"
# an event without a database call waits only for its next arrival: 200
# expected; a loop that overslept each arrival to its 1 s tick gave 2 (3 at
# most over a 2 s window): more than that is the bound, the failure's own
# size, not a speed
printf 'function event() end\n' >"$out.lua"
"$DBSCALE" "$out.lua" $SERVER_OPTS --threads=1 --rate=100 --time=2 --output=json run >"$out" 2>&1 ||
    fail "rate run of an empty event failed: $(cat "$out")"
rm -f "$out.lua"
[ "$(num transactions)" -gt 3 ] || fail "--rate=100 for 2 s, empty event: $(num transactions)"
# --rate with --report-interval: sysbench's queue line, as a built-in run
# prints it. One connection whose events take 0.3 s falls behind 50
# arrivals a second: arrivals wait (the queue) while it is inside an event.
# (At 10 a second, Poisson arrivals left none waiting at 1 s in about 3% of
# runs: 4 or fewer in the first second; one CI-like run hit it. At 50 that
# takes 4 or fewer of an expected 50.)
cat >"$out.lua" <<'LUA'
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT pg_sleep(0.3)") end
LUA
"$DBSCALE" "$out.lua" $SERVER_OPTS --threads=1 --rate=50 --time=2 --report-interval=1 run \
    >"$out" 2>&1 || fail "rate run with intervals failed: $(cat "$out")"
rm -f "$out.lua"
grep -q '^\[ 1s \] queue length: [1-9][0-9]*, concurrency: 1$' "$out" ||
    fail "--rate --report-interval: no queue line with a queue behind the busy connection: $(cat "$out")"
ok "$DBSCALE" "$S" $SERVER_OPTS cleanup
echo "lua_pace: warmup ran $ran events, reported $(num transactions) paced"
