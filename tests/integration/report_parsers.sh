#!/bin/sh
# integration: long
# Scripts that parse sysbench's text read the same fields from dbscale's.
# report_corpus/ holds real sysbench 1.0.20 reports (one per set of options
# below) and parsers.txt the one-liners such scripts use; each one-liner must
# give output of the same shape on sysbench's report and on dbscale's for the
# same options: numbers may differ, lines, words and positions may not.
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
CORPUS=$(cd "$(dirname "$0")/report_corpus" && pwd)
start_server pgsql
CONN="$SERVER_OPTS"
T=$SERVER_DIR/reports
mkdir -p "$T"

ok "$DBSCALE" prepare oltp_read_only $CONN --tables=1 --table-size=1000

# case name, then dbscale's options for it (sysbench's were the same)
while read -r name opts; do
    # shellcheck disable=SC2086
    "$DBSCALE" run oltp_read_only $CONN --tables=1 --table-size=1000 --threads=2 $opts \
        >"$T/$name.txt" 2>"$T/$name.err" || fail "run $name ($opts): $(cat "$T/$name.err")"
done <<CASES
default --time=1
p99_seed --time=1 --percentile=99 --rand-seed=42
p0 --time=1 --percentile=0
hist --time=1 --histogram
rate --time=2 --rate=50 --report-interval=1
interval --time=2 --report-interval=1 --percentile=99
checkpoints --time=3 --report-interval=1 --report-checkpoints=1,2
CASES

# Where sysbench is installed, its reports for the same options are made
# live too, and checked as the corpus is (so the corpus cannot drift from
# what sysbench prints).
SOURCES=$CORPUS
if command -v sysbench >/dev/null 2>&1 && sysbench --version | grep -q '^sysbench 1\.0\.20'; then
    mkdir -p "$T/live"
    SB="sysbench oltp_read_only --db-driver=pgsql --pgsql-host=127.0.0.1 --pgsql-port=$SERVER_PORT
        --pgsql-user=$SERVER_USER --pgsql-password=$(server_password) --pgsql-db=$SERVER_DB
        --tables=1 --table-size=1000 --threads=2"
    while read -r name opts; do
        # shellcheck disable=SC2086
        $SB $opts run >"$T/live/sysbench_$name.txt" 2>&1 || fail "sysbench $name: $(cat "$T/live/sysbench_$name.txt")"
    done <<CASES
default --time=1
p0 --time=1 --percentile=0
hist --time=1 --histogram
rate --time=2 --rate=50 --report-interval=1
checkpoints --time=3 --report-interval=1 --report-checkpoints=1,2
CASES
    SOURCES="$CORPUS $T/live"
fi

# numbers become N and runs of spaces one space: what may differ between runs
shape() {
    sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g'
}

n=0
bad=0
tab=$(printf '\t')
while IFS="$tab" read -r cases cmd; do
    case $cases in '#'* | '') continue ;; esac
    for src in $SOURCES; do
        for name in default p99_seed p0 hist rate interval checkpoints; do
            case " $cases " in *" all "* | *" $name "*) ;; *) continue ;; esac
            [ -f "$src/sysbench_$name.txt" ] || continue
            want=$(sh -c "$cmd" <"$src/sysbench_$name.txt" | shape)
            got=$(sh -c "$cmd" <"$T/$name.txt" | shape)
            n=$((n + 1))
            if [ "$want" != "$got" ]; then
                bad=$((bad + 1))
                printf 'report %s (%s): %s\n  sysbench: %s\n  dbscale:  %s\n' "$name" "$src" \
                    "$cmd" "$(echo "$want" | head -5)" "$(echo "$got" | head -5)" >&2
            fi
        done
    done
done <"$CORPUS/parsers.txt"
[ "$n" -gt 60 ] || fail "only $n one-liner checks ran"
# KEEP_REPORTS=DIR keeps both programs' reports there (to see a difference)
[ -n "${KEEP_REPORTS:-}" ] && cp -r "$T" "$KEEP_REPORTS"
[ "$bad" -eq 0 ] || fail "$bad of $n one-liner checks read something else from dbscale's report"

# The values are dbscale's own: the percentile sysbench's parsers read is
# the one asked for, and it lies between min and max.
r=$T/p99_seed.txt
p=$(grep percentile "$r" | awk '{print $3}')
lo=$(grep 'min:' "$r" | awk '{print $2}')
hi=$(grep 'max:' "$r" | awk '{print $2}')
awk -v p="$p" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(p >= lo && p <= hi && hi > 0) }' ||
    fail "99th percentile $p outside min $lo .. max $hi"
# dbscale's extra figures are still in every report
for name in default p99_seed hist rate interval; do
    grep -q '^    ms at 50/95/99' "$T/$name.txt" || fail "$name: no extra percentiles"
    grep -q '^    client CPU per txn:' "$T/$name.txt" || fail "$name: no client CPU"
done
grep -q '^    ms at' "$T/p0.txt" && fail "--percentile=0 still shows percentiles"
echo "report_parsers: $n one-liner checks read the same fields"
exit 0
