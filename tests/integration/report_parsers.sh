#!/bin/sh
# integration: long
# Scripts that parse sysbench's text read the same fields from dbscale's.
# report_corpus/ holds real sysbench 1.0.20 reports (one per set of options
# below) and parsers.txt the one-liners such scripts use; each one-liner must
# give output of the same shape on sysbench's report and on dbscale's for the
# same options: numbers may differ, lines, words and positions may not.
# And every line of dbscale's reports is printed by one of sysbench's own
# printf formats, read out of its binary (sysbench_formats.py).
. "$(dirname "$0")/lib.sh" "$1"
need_engine pgsql
HERE=$(cd "$(dirname "$0")" && pwd)
CORPUS=$HERE/report_corpus
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
if have_tool sysbench sysbench && ! sysbench --version | grep -q '^sysbench 1\.0\.20'; then
    skip_env_part "sysbench is $(sysbench --version), not 1.0.20: no live reports"
elif command -v sysbench >/dev/null; then
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

# Each one-liner runs on the reports of the cases it applies to; the
# outputs of one report come from one shell (every applicable one-liner
# under a numbered marker line, as sysbench_cmdlines.sh does), and dbscale's
# report is read once for both sources: a shell, a sed and a command
# substitution per one-liner and report pair were most of this test's time.
MARK=@@dbscale-one-liner@@
W=$SERVER_DIR/parse
mkdir -p "$W"
# numbers become N and runs of spaces one space: what may differ between
# runs (not in the marker lines)
shape() {
    sed -E "/^$MARK [0-9]+\$/!{s/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g;}"
}
tab=$(printf '\t')
i=0
while IFS="$tab" read -r cases cmd; do
    case $cases in '#'* | '') continue ;; esac
    i=$((i + 1))
    printf '%s\n' "$cmd" >>"$W/cmds"
    for name in default p99_seed p0 hist rate interval checkpoints; do
        case " $cases " in *" all "* | *" $name "*) ;; *) continue ;; esac
        printf 'printf "\\n%s %s\\n"\n(%s) <"$1"\n' "$MARK" "$i" "$cmd" >>"$W/$name.sh"
        echo "$i" >>"$W/$name.want"
    done
done <"$CORPUS/parsers.txt"
# compare.awk CMDS INDEXES SYSBENCH DBSCALE: every one-liner's output (the
# lines under its marker, trailing empty lines dropped as $(...) drops
# them) the same in both; prints "checks bad", each difference on stderr
cat >"$W/compare.awk" <<'AWK'
{ f = FILENAME == ARGV[1] ? 1 : FILENAME == ARGV[2] ? 2 : FILENAME == ARGV[3] ? 3 : 4 }
f == 1 { cmd[FNR] = $0; next }
f == 2 { want[++nw] = $0; next }
$0 ~ "^" mark " [0-9]+$" { cur = $2; ran[f, cur] = 1; out[f, cur] = ""; lines[f, cur] = 0; next }
cur != "" { out[f, cur] = (lines[f, cur]++ ? out[f, cur] "\n" : "") $0 }
END {
    bad = 0
    for (k = 1; k <= nw; k++) {
        i = want[k]
        for (g = 3; g <= 4; g++) {
            s = out[g, i]
            sub(/\n+$/, "", s)
            out[g, i] = s
        }
        if (!ran[3, i] || !ran[4, i] || out[3, i] != out[4, i]) {
            bad++
            printf "report %s (%s): %s\n  sysbench: %s\n  dbscale:  %s\n", name, src, cmd[i],
                (ran[3, i] ? head5(out[3, i]) : "(did not run)"),
                (ran[4, i] ? head5(out[4, i]) : "(did not run)") > "/dev/stderr"
        }
    }
    print nw, bad
}
function head5(s,    a, n, r, j) {
    n = split(s, a, "\n")
    r = a[1]
    for (j = 2; j <= n && j <= 5; j++) r = r "\n" a[j]
    return r
}
AWK
n=0
bad=0
for name in default p99_seed p0 hist rate interval checkpoints; do
    [ -f "$W/$name.sh" ] || continue
    sh "$W/$name.sh" "$T/$name.txt" | shape >"$W/$name.got"
    for src in $SOURCES; do
        [ -f "$src/sysbench_$name.txt" ] || continue
        sh "$W/$name.sh" "$src/sysbench_$name.txt" | shape >"$W/$name.sysbench"
        r=$(awk -v mark="$MARK" -v name="$name" -v src="$src" -f "$W/compare.awk" \
            "$W/cmds" "$W/$name.want" "$W/$name.sysbench" "$W/$name.got") || fail "compare.awk failed"
        n=$((n + ${r% *}))
        bad=$((bad + ${r#* }))
    done
done
[ "$n" -gt 60 ] || fail "only $n one-liner checks ran"
# KEEP_REPORTS=DIR keeps both programs' reports there (to see a difference)
[ -n "${KEEP_REPORTS:-}" ] && cp -r "$T" "$KEEP_REPORTS"
[ "$bad" -eq 0 ] || fail "$bad of $n one-liner checks read something else from dbscale's report"

# sysbench's own formats: every line of the report, from the options to the
# threads' fairness (interval and checkpoint lines among them), is one that
# one of sysbench's printf formats prints: the formats are read out of the
# installed sysbench binary, each line's values parsed back and printed
# through the format again, which must give the line byte for byte (widths,
# precision, padding and all). The same check runs on sysbench's own
# reports, so it cannot pass by being lax (sysbench_formats.py).
if have_tool sysbench sysbench; then
    sbreports=$(ls "$CORPUS"/sysbench_*.txt "$T"/live/sysbench_*.txt 2>/dev/null)
    # shellcheck disable=SC2086
    r=$(python3 "$HERE/sysbench_formats.py" "$(command -v sysbench)" $sbreports) ||
        fail "sysbench's formats do not read sysbench's own reports: $r"
    echo "$r" | grep -q '^CHECKED [0-9]* 0$' || fail "sysbench's own reports and its formats: $r"
    r=$(python3 "$HERE/sysbench_formats.py" "$(command -v sysbench)" "$T"/*.txt) || fail "sysbench_formats.py: $r"
    echo "$r" | grep -q '^CHECKED [0-9]* 0$' || fail "dbscale's report has lines sysbench's formats do not print:
$r"
    echo "report_parsers: $(echo "$r" | awk '/^CHECKED/ { print $2 }') lines of dbscale's reports printed by sysbench's own formats"
fi

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
