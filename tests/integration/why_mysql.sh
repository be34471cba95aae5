#!/bin/sh
# why_mysql.sh - the why collectors against a real MariaDB with a bottleneck
# made on purpose: a 1-row table that 8 connections update
# (oltp_update_non_index, --table-size=1). One server for the whole script,
# started as a managed one is (performance_schema with the wait/synch
# instruments; the sweep user may read them).
#  1. --profile (every level) over 1 and 8 threads: at 8, InnoDB's row-lock
#     waits are counted and are the largest lock, I/O or other wait per
#     transaction; performance_schema summaries are there; each level has
#     folded stacks with kernel frames; the page's why sentence has numbers.
#  2. a user without SELECT on performance_schema and without PROCESS: both
#     grants are named, and the sweep goes on (the row-lock counters of SHOW
#     GLOBAL STATUS need neither).
#  3. managed servers: by default without performance_schema (it costs
#     MariaDB ~10% TPS at 64 connections), the InnoDB counters still there
#     and nothing complained of; with --waits=performance_schema it is on
#     and its summaries are read.
. "$(dirname "$0")/lib.sh" "$1"
need_engine mysql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server mysql --conf performance_schema=ON --conf "performance_schema_instrument='wait/synch/%=ON'"
hot="oltp_update_non_index $SERVER_OPTS --server=external --tables=1 --table-size=1 --repeats=1"
col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }

# 1. row-lock waits on the hot row, every level profiled
out=$work/hot
"$DBSCALE" sweep $hot --prepare=on --threads=1,8 --time=1.5 --profile --out "$out" \
    >"$work/log1" 2>&1 || fail "sweep failed: $(cat "$work/log1")"
grep -q "why:" "$work/log1" && fail "a collector complained: $(grep 'why:' "$work/log1")"
grep -q ',performance_schema,wait/synch/' "$out/waits.csv" ||
    fail "no performance_schema wait summaries: $(head "$out/waits.csv")"
awk -F, -v ce="$(col "$out/waits.csv" event)" -v cc="$(col "$out/waits.csv" cls)" \
    -v cu="$(col "$out/waits.csv" us_txn)" -v cn="$(col "$out/waits.csv" count)" \
    -v ct="$(col "$out/waits.csv" threads)" '
    NR > 1 && $ct == 8 && $ce == "innodb:row_lock_waits" { n = $cn; us = $cu }
    NR > 1 && $ct == 8 && ($cc == "lock" || $cc == "io" || $cc == "other") && $cu > best {
        best = $cu; top = $ce }
    END { printf "row-lock waits: %d, %.0f us/txn; top wait %s\n", n, us, top
          exit !(n > 0 && top == "innodb:row_lock_waits") }' "$out/waits.csv" ||
    fail "row-lock waits are not the top wait: $(cat "$out/waits.csv")"
folded=$(awk -F, -v c="$(col "$out/profile.csv" folded)" 'NR == 2 { print $c }' "$out/profile.csv")
[ -s "$out/$folded" ] || fail "no folded stacks: $(cat "$out/profile.csv")"
grep -q '_\[k\] [0-9]*$' "$out/$folded" || fail "no kernel frames in $folded"
grep -q 'mariadbd\|mysqld\|one_connection\|connection' "$out/$folded" ||
    fail "the folded stacks are not the server's: $(head -c 400 "$out/$folded")"
grep -Eq '<p class="why" id="why-c1"[^>]*>From 1 to 8 threads on [0-9]+ CPUs? .* -&gt; [0-9.]+ us' \
    "$out/report.html" || fail "no why sentence with numbers: $(grep -o '<p class="why".\{0,300\}' "$out/report.html")"
grep -q '<rect class="fr"' "$out/report.html" || fail "no flame graph on the page"

# 2. a user who may read neither performance_schema nor InnoDB's status
[ "$(id -u)" = 0 ] || skip_env "creating a user needs the server's root (OS root)"
pw=$(server_password)
mariadb -S "$SERVER_SOCKET" -u root -e "
    CREATE USER 'plain'@'localhost' IDENTIFIED BY '$pw';
    CREATE USER 'plain'@'127.0.0.1' IDENTIFIED BY '$pw';
    GRANT ALL ON sbtest.* TO 'plain'@'localhost';
    GRANT ALL ON sbtest.* TO 'plain'@'127.0.0.1';" || fail "cannot create the user"
out=$work/plain
"$DBSCALE" sweep $hot --mysql-user=plain --prepare=off --threads=2 --time=1 --report=off \
    --out "$out" >"$work/log2" 2>&1 || fail "sweep as plain failed: $(cat "$work/log2")"
grep -q "GRANT SELECT ON performance_schema.\* TO 'plain'@" "$work/log2" ||
    fail "the performance_schema grant is not named: $(cat "$work/log2")"
grep -q "GRANT PROCESS ON \*.\* TO 'plain'@" "$work/log2" ||
    fail "the PROCESS grant is not named: $(cat "$work/log2")"
grep -q ',performance_schema,' "$out/waits.csv" && fail "summaries read without the grant"
grep -q 'innodb:row_lock_waits' "$out/waits.csv" || fail "no row-lock counters without the grants"

# 3. managed: performance_schema only when asked for
mgd="oltp_point_select --db-driver=mysql --server=managed --tables=1 --table-size=100 --repeats=1"
mgd="$mgd --cpus=all --threads=2 --time=1 --report=off"
"$DBSCALE" sweep $mgd --out "$work/m1" >"$work/log3" 2>&1 ||
    fail "managed sweep failed: $(cat "$work/log3")"
grep -q "why:" "$work/log3" && fail "a collector complained by default: $(grep 'why:' "$work/log3")"
grep -q ',performance_schema,' "$work/m1/waits.csv" &&
    fail "a default managed server has performance_schema: $(head -3 "$work/m1/waits.csv")"
grep -q 'innodb:row_lock_waits' "$work/m1/waits.csv" || fail "no InnoDB counters by default"
"$DBSCALE" sweep $mgd --waits=performance_schema --out "$work/m2" >"$work/log4" 2>&1 ||
    fail "managed sweep with --waits=performance_schema failed: $(cat "$work/log4")"
grep -q "why:" "$work/log4" && fail "a collector complained: $(grep 'why:' "$work/log4")"
grep -q ',performance_schema,wait/' "$work/m2/waits.csv" ||
    fail "--waits=performance_schema read no summaries: $(head -5 "$work/m2/waits.csv")"
echo "managed: performance_schema off by default, on with --waits=performance_schema"
echo "why_mysql: ok"
