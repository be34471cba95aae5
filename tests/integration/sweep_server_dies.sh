#!/bin/sh
# The managed server dies mid-sweep (SIGKILL to the postmaster): the sweep
# stops at the first level that completes nothing, says the server died,
# exits 1, and keeps the levels it finished; no 0-tps level is recorded as a
# measurement, and a disturbed level carries its reason in results.csv.
# meta.json names the address the managed server really had.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/r
"$DBSCALE" sweep oltp_point_select --db-driver=pgsql --threads=1 --repeats=30 --time=0.3 \
    --tables=1 --table-size=200 --reconnect-timeout=1 --out "$out" >"$work/log" 2>&1 &
sweep=$!
i=0
while [ $i -lt 600 ] && [ "$(cat "$out/results.csv" 2>/dev/null | wc -l)" -lt 3 ]; do
    sleep 0.05
    i=$((i + 1))
done
[ -s "$out/results.csv" ] || { kill $sweep; fail "no level finished: $(cat "$work/log")"; }
pm=$(ps -o pid=,comm= --ppid $sweep | awk '$2 ~ /postgres/ {print $1}' | head -n 1)
[ -n "$pm" ] || { kill $sweep; fail "cannot find the managed postmaster"; }
# meta.json names the managed server's own address, not the defaults: the
# port and listen address PostgreSQL itself wrote in postmaster.pid (lines
# 4 and 6) in the data directory its -D names
data=$(tr '\0' '\n' <"/proc/$pm/cmdline" | sed -n '/^-D$/{n;p}')
port=$(sed -n 4p "$data/postmaster.pid" 2>/dev/null)
addr=$(sed -n 6p "$data/postmaster.pid" 2>/dev/null)
[ -n "$port" ] || { kill $sweep; fail "no port in $data/postmaster.pid (postmaster $pm)"; }
expect_eq "meta.json db_port of the managed server" "$(json_get "$out/meta.json" db_port)" "$port"
expect_eq "meta.json db_host of the managed server" "$(json_get "$out/meta.json" db_host)" "$addr"
echo "managed server at $addr:$port"
kill -KILL "$pm"
wait $sweep
rc=$?
expect_eq "sweep exit after its server died" $rc 1
grep -q "server.*\(died\|exited\|gone\)" "$work/log" || fail "no reason given: $(cat "$work/log")"
head -1 "$out/results.csv" | grep -q ',disturbed,disturbed_why,' || fail "no disturbed_why column"
col() { head -1 "$out/results.csv" | tr ',' '\n' | grep -nx "$1" | cut -d: -f1; }
T=$(col tps) D=$(col disturbed) W=$(col disturbed_why)
[ -n "$T" ] && [ -n "$D" ] && [ -n "$W" ] || fail "results.csv lacks tps/disturbed/disturbed_why"
zero=$(awk -F, -v t="$T" 'NR > 1 && $t == 0' "$out/results.csv" | wc -l)
expect_eq "0-tps levels recorded" "$zero" 0
rows=$(($(wc -l <"$out/results.csv") - 1))
[ "$rows" -ge 2 ] && [ "$rows" -lt 30 ] || fail "expected the finished levels only, got $rows"
nd=$(awk -F, -v d="$D" 'NR > 1 && $d == 1' "$out/results.csv" | wc -l)
if [ "$nd" -gt 0 ]; then
    grep -q "^$nd disturbed level" "$work/log" || fail "summary does not name the $nd disturbed level(s)"
    awk -F, -v d="$D" -v w="$W" 'NR > 1 && $d == 1 && $w == ""' "$out/results.csv" | grep -q . &&
        fail "a disturbed level without a reason"
fi
expect_eq "meta.json levels_done" "$(json_get "$out/meta.json" levels_done)" "$rows"
echo "server died: exit 1 with the reason, $rows finished level(s) kept"
