#!/bin/sh
# A sweep's results directory is never lost or mixed up: meta.json is
# rewritten after every level (a SIGKILL leaves levels_done = the rows on
# disk) and names the server actually used; an existing --out is refused
# (exit 2) unless --append, and --append run three at once keeps every
# level; a --out that is a link is refused; two sweeps started in the same second get two
# directories; bad --variant labels and stray positionals are refused
# (exit 2) before anything starts.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
work=$(mktemp -d)
at_exit 'rm -rf "$work"'
start_server pgsql
D="$SERVER_OPTS --tables=1 --table-size=200"
C="$D --server=external --warmup-time=0"
ok "$DBSCALE" prepare oltp_point_select $D

# -- refused before anything runs: exit 2 naming the option, and nothing
# under $work changed (no directory made, an existing --out untouched)
IT_WATCH=$work
expect_rc2() { # WHAT NEEDLE CMD...
    shift
    refuses 2 "$@"
}
nl='a
b'
expect_rc2 "newline variant" --variant "$DBSCALE" sweep oltp_point_select $C --threads=1 \
    --repeats=1 --time=0.2 --variant "$nl" --out "$work/v1"
expect_rc2 "long variant" --variant "$DBSCALE" sweep oltp_point_select $C --threads=1 \
    --repeats=1 --time=0.2 --variant=abcdefghijklmnopqrstuvwxyz0123456789 --out "$work/v2"
expect_rc2 "extra positional" extra "$DBSCALE" sweep oltp_point_select extra $C --threads=1 \
    --repeats=1 --time=0.2 --out "$work/v3"
expect_rc2 "positional vs --workload" --workload "$DBSCALE" sweep oltp_point_select $C \
    --workload=oltp_read_only --threads=1 --repeats=1 --time=0.2 --out "$work/v4"
for d in v1 v2 v3 v4; do [ ! -e "$work/$d/results.csv" ] || fail "$d: a refused sweep wrote results"; done

# -- SIGKILL mid-sweep: meta.json already says how many levels are on disk
out=$work/k
"$DBSCALE" sweep oltp_point_select $C --threads=1 --repeats=50 --time=0.2 --out "$out" \
    >"$work/logk" 2>&1 &
sweep=$!
i=0
while [ $i -lt 300 ] && [ "$(cat "$out/results.csv" 2>/dev/null | wc -l)" -lt 3 ]; do
    sleep 0.05
    i=$((i + 1))
done
kill -KILL $sweep
wait $sweep 2>/dev/null
rows=$(($(wc -l <"$out/results.csv") - 1))
[ "$rows" -ge 2 ] || fail "no levels before the kill: $(cat "$work/logk")"
done_=$(json_get "$out/meta.json" levels_done) || fail "meta.json is not JSON: $(cat "$out/meta.json")"
[ "$done_" -ge $((rows - 1)) ] && [ "$done_" -le "$rows" ] ||
    fail "meta.json levels_done $done_ with $rows rows on disk"
expect_eq "meta.json db_port" "$(json_get "$out/meta.json" db_port)" "$SERVER_PORT"
expect_eq "meta.json db_host" "$(json_get "$out/meta.json" db_host)" "127.0.0.1"

# -- an existing --out is refused, and left as it was (expect_rc2 compares
# the whole tree before and after)
cp "$out/results.csv" "$work/before.csv"
expect_rc2 "existing --out" --out "$DBSCALE" sweep oltp_point_select $C --threads=1 --repeats=1 \
    --time=0.2 --out "$out"
# ... and --append adds a run beside the earlier one, losing nothing
ok "$DBSCALE" sweep oltp_point_select $C --threads=1 --repeats=1 --time=0.2 --out "$out" --append
expect_eq "rows after --append" "$(($(wc -l <"$out/results.csv") - 1))" $((rows + 1))
head -n "$((rows + 1))" "$out/results.csv" | cmp -s - "$work/before.csv" ||
    fail "--append changed the earlier rows"
[ -s "$out/meta.1.json" ] || fail "--append lost the earlier meta.json"
expect_eq "appended run's levels_done" "$(json_get "$out/meta.json" levels_done)" 1
# ... also three at once: one after the other (each waits for the directory),
# every level kept and every run's meta.N.json whole
rows=$(($(wc -l <"$out/results.csv") - 1))
for i in 1 2 3; do
    "$DBSCALE" sweep oltp_point_select $C --threads=1,2 --repeats=1 --time=0.2 --out "$out" \
        --append >"$work/ap$i" 2>&1 &
    eval "ap$i=\$!"
done
for i in 1 2 3; do
    eval "wait \$ap$i" || fail "concurrent --append $i: $(cat "$work/ap$i")"
done
expect_eq "rows after three concurrent --append" "$(($(wc -l <"$out/results.csv") - 1))" $((rows + 6))
expect_eq "meta.2.json levels_done" "$(json_get "$out/meta.2.json" levels_done)" 1
for m in meta.3.json meta.4.json meta.json; do
    expect_eq "$m levels_done (concurrent --append)" "$(json_get "$out/$m" levels_done)" 2
done
# a results directory is never written through a link named --out
ln -s "$out" "$work/link"
expect_rc2 "--out a symbolic link" "symbolic link" "$DBSCALE" sweep oltp_point_select $C \
    --threads=1 --repeats=1 --time=0.2 --out "$work/link" --append

# -- two sweeps in the same second: two directories, each whole
mkdir "$work/cwd"
(cd "$work/cwd" && "$DBSCALE" sweep oltp_point_select $C --threads=1 --repeats=2 --time=0.2 \
    >"$work/la" 2>&1) &
a=$!
(cd "$work/cwd" && "$DBSCALE" sweep oltp_point_select $C --threads=1 --repeats=2 --time=0.2 \
    >"$work/lb" 2>&1) &
b=$!
wait $a || fail "first sweep: $(cat "$work/la")"
wait $b || fail "second sweep: $(cat "$work/lb")"
ndirs=$(ls "$work/cwd/results" | wc -l)
expect_eq "result directories of two sweeps" "$ndirs" 2
for d in "$work"/cwd/results/*; do
    expect_eq "rows in $d" "$(($(wc -l <"$d/results.csv") - 1))" 2
done
echo "sweep results ok: meta after every level, --out never overwritten, labels checked"
