#!/bin/sh
# integration: alone
# 1024 scripted connections (lua/count.lua) against a throwaway PostgreSQL
# configured for them: each did work (its own count, stored at the server),
# the process stays at a few threads (the connections share event loops),
# and the driver's memory per scripted connection is reported.
. "$(dirname "$0")/lib.sh" "$1"
need_file /usr/bin/time time
start_server pgsql --conf max_connections=1100 --conf shared_buffers=128MB
S=$(dirname "$0")/lua/count.lua
ok "$DBSCALE" "$S" $SERVER_OPTS prepare
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
/usr/bin/time -f %M -o "$work/rss1" "$DBSCALE" "$S" $SERVER_OPTS --threads=1 --time=1 run \
    >"$work/out1" 2>&1 || fail "1 connection: $(cat "$work/out1")"
pg_sql "TRUNCATE lua_counts" >/dev/null
# --forced-shutdown=off (sysbench's default): every event in flight at the
# window's end finishes and every thread_done stores its count; dbscale's own
# default gives them 1 s, and at 1024 connections on 2 CPUs an event takes
# about that long
/usr/bin/time -f %M -o "$work/rss" "$DBSCALE" "$S" $SERVER_OPTS --threads=1024 --time=1 \
    --forced-shutdown=off --output=json run >"$work/out" 2>&1 &
pid=$!
# the most threads the process had while it ran (its pid is time's child)
max=0
while kill -0 $pid 2>/dev/null; do
    for p in $(pgrep -P $pid); do
        t=$(sed -n 's/^Threads:[[:space:]]*//p' /proc/$p/status 2>/dev/null)
        [ "${t:-0}" -gt $max ] && max=$t
    done
    sleep 0.2
done
wait $pid || fail "1024 connections: $(tail -5 "$work/out")"
busy=$(pg_sql "SELECT count(DISTINCT tid) FROM lua_counts WHERE events > 0")
expect_eq "scripted connections that counted events at the server" "$busy" 1024
# the window opened once every connection had finished an event (the ramp):
# a 1 s window opened at once counted 256 of them on a fresh server
grep -q 'without a first transaction' "$work/out" && fail "the ramp timed out: $(tail -3 "$work/out")"
counted=$(sed -n 's/.*"transactions": \([0-9]*\).*/\1/p' "$work/out")
[ "${counted:-0}" -ge 1024 ] || fail "1024 scripted connections counted ${counted:-0} events in the window"
[ "$max" -gt 0 ] || fail "never saw the run's thread count"
# one loop per CPU, the ticker, the main thread; a thread per connection would be 1025
[ "$max" -le $(($(nproc) + 4)) ] || fail "the run had $max threads for 1024 connections"
per=$((($(cat "$work/rss") - $(cat "$work/rss1")) / 1023))
txns=$(sed -n 's/.*"transactions": \([0-9]*\).*/\1/p' "$work/out")
ok "$DBSCALE" "$S" $SERVER_OPTS cleanup
echo "lua 1024 connections: $txns transactions on $max threads, ~$per KiB of driver memory per scripted connection"
