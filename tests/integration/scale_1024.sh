#!/bin/sh
# integration: alone
# 1024 client connections in one level against a throwaway PostgreSQL
# configured for them: no crash, the window opened after every connection's
# first transaction (the ramp), every connection did work in it, and the
# driver's memory per connection stays small (it is reported; the bound is
# loose).
. "$(dirname "$0")/lib.sh" "$1"
need_file /usr/bin/time time
start_server pgsql --conf max_connections=1100 --conf shared_buffers=256MB
C="$SERVER_OPTS --tables=4 --table-size=2000"
ok "$DBSCALE" prepare oltp_point_select $C
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
/usr/bin/time -f %M -o "$work/rss1" "$DBSCALE" run oltp_point_select $C --threads=1 --time=1 \
    >"$work/out1" 2>&1 || fail "1 thread: $(cat "$work/out1")"
DBSCALE_TXN_LOG=$work/log /usr/bin/time -f %M -o "$work/rss" "$DBSCALE" run oltp_point_select $C \
    --threads=1024 --time=6 --output=json >"$work/out" 2>&1 || fail "1024 threads: $(tail -5 "$work/out")"
txns=$(sed -n 's/.*"transactions": \([0-9]*\).*/\1/p' "$work/out")
sd=$(sed -n 's/.*"events_avg": \([0-9.]*\).*/\1/p' "$work/out")
ramp=$(sed -n 's/.*"ramp_s": \([0-9.]*\).*/\1/p' "$work/out")
# the window opened once every connection had finished a transaction: on a
# fresh server 1024 backends take seconds to answer their first statements,
# which a window opened at once measured as 0 tps
[ -n "$ramp" ] || fail "no ramp in the report: $(tail -3 "$work/out")"
grep -q 'without a first transaction' "$work/out" && fail "the ramp timed out: $(tail -3 "$work/out")"
[ "${txns:-0}" -ge 1024 ] || fail "1024 connections did only $txns transactions"
# every one of the 1024 did work, not only the total (at 1024 connections
# this machine's server does 500-1100 transactions a second, so a 6 s window
# gives each about 3 to 6): the per-transaction
# log names the connection (1..1024) of each counted transaction
busy=$(grep -v '^#' "$work/log" | cut -d' ' -f1 | sort -un | wc -l)
expect_eq "connections with a counted transaction" "$busy" 1024
per=$((($(cat "$work/rss") - $(cat "$work/rss1")) / 1023))
[ "$per" -lt 1024 ] || fail "driver memory per connection is $per KiB"
echo "1024 connections: $txns transactions ($sd per connection) after a ${ramp}s ramp, ~$per KiB of driver memory per connection"
