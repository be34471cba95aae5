#!/bin/sh
# integration: long
# A sysbench user's command line works after swapping the program name:
# each line of sysbench_cmdlines/lines.txt (real sysbench 1.0.20 command
# lines) runs through dbscale against a throwaway server of each engine and,
# where sysbench 1.0.20 is installed, through sysbench against the same
# server first. Each either behaves as in sysbench (the same exit class and,
# for a run, the same report fields read by report_corpus/parsers.txt's
# one-liners) or is refused with a reason (exit 2, naming the option).
# Where sysbench runs too, its behaviour is checked against the line's
# expectation, so the table cannot drift from what sysbench does.
# DBSCALE_CMDLINES_ONLY=N runs only line N of the table, and
# DBSCALE_CMDLINES_TIMES=1 stamps each line on stderr (debugging aids).
. "$(dirname "$0")/lib.sh" "$1"
HERE=$(cd "$(dirname "$0")" && pwd)
LINES=$HERE/sysbench_cmdlines/lines.txt
PARSERS=$HERE/report_corpus/parsers.txt
SB=
if have_tool sysbench sysbench; then
    if sysbench --version 2>/dev/null | grep -q '^sysbench 1\.0\.20'; then
        SB=sysbench
    else
        skip_env_part "sysbench is $(sysbench --version), not 1.0.20: not run beside dbscale"
    fi
fi
W=$(mktemp -d)
at_exit 'rm -rf "$W"'
printf 'tables=2\ntable-size=100\nevents=20\nthreads=2\n' >"$W/sb.cfg"
tab=$(printf '\t')

# numbers become N and runs of spaces one space: what may differ between runs
shape() {
    sed -E 's/[0-9]+(\.[0-9]+)?/N/g; s/ +/ /g'
}

# every one-liner for all reports as one script over the report in $1, each
# output under a marker line: one shell per report instead of one per
# one-liner (42 shells and their pipelines per line were most of this test's
# time)
i=0
while IFS="$tab" read -r cases cmd; do
    [ "$cases" = all ] || continue
    i=$((i + 1))
    printf 'echo "@@ one-liner %s"\n(%s) <"$1" 2>/dev/null\n' "$i" "$cmd"
done <"$PARSERS" >"$W/all.sh"

# fields REPORT: the shape of what the one-liners read from it. They read
# fields by position and pattern, never by value (no digit in a pattern, no
# column cut by character), so two reports of the same shape give the same
# shape here: it is kept by the report's shape, and the 50-odd processes of
# the one-liners run once per shape, not twice per line (they were 0.28 s a
# report, about half of this test's CPU)
fields() {
    k=$W/fields.$(shape <"$1" | cksum | tr ' ' _)
    [ -f "$k" ] || sh "$W/all.sh" "$1" | shape >"$k"
    cat "$k"
}

# same_fields A B: every one-liner for all reports reads the same shape (the
# one-liners one at a time, to name the one that differs, only when the
# whole script's shapes differ)
same_fields() {
    [ "$(fields "$1")" != "$(fields "$2")" ] || return 0
    while IFS="$tab" read -r cases cmd; do
        [ "$cases" = all ] || continue
        a=$(sh -c "$cmd" <"$1" 2>/dev/null | shape)
        b=$(sh -c "$cmd" <"$2" 2>/dev/null | shape)
        if [ "$a" != "$b" ]; then
            printf '%s\n      sysbench: %s\n      dbscale:  %s' "$cmd" "$(echo "$a" | head -3)" \
                "$(echo "$b" | head -3)"
            return 1
        fi
    done <"$PARSERS"
    return 0
}

# the command word of a line (prepare, run, ...), for the tables it needs
command_of() {
    for w in $1; do
        case $w in prepare | cleanup | prewarm | run | help) echo "$w" ;; esac
    done | tail -1
}

tables() { # standard: the 2 x 100 rows most lines use; none: dropped
    "$DBSCALE" cleanup oltp_read_write $CONN --tables=2 >/dev/null 2>&1
    [ "$1" = none ] ||
        ok "$DBSCALE" prepare oltp_read_write $CONN --tables=2 --table-size=100
}

n=0 bad=0 refused=0 failed=""
check_engine() {
    e=$1
    have_engine "$e" || return 0
    start_server "$e" >/dev/null
    PW=$(server_password)
    AUTH="--db-driver=$e --$e-user=$SERVER_USER --$e-password=$PW --$e-db=$SERVER_DB"
    CONN="$AUTH --$e-host=127.0.0.1 --$e-port=$SERVER_PORT"
    tables standard
    no=0
    while IFS="$tab" read -r expect engines args pattern; do
        case $expect in '#'* | '') continue ;; esac
        no=$((no + 1))
        [ -z "${DBSCALE_CMDLINES_ONLY:-}" ] || [ "$DBSCALE_CMDLINES_ONLY" = "$no" ] || continue
        [ "$engines" = both ] || [ "$engines" = "$e" ] || continue
        line=$(echo "$args" | sed "s|@CFG@|$W/sb.cfg|g; s|@PORT@|$SERVER_PORT|g; s|@AUTH@|$AUTH|g")
        case $line in *@CONN@*) line=$(echo "$line" | sed "s|@CONN@|$CONN|") ;;
        *"--$e-host="*) ;; *) line="$line $CONN" ;; esac
        cmd=$(command_of "$line")
        n=$((n + 1))
        [ -z "${DBSCALE_CMDLINES_TIMES:-}" ] || echo "$(date +%s.%N | cut -c1-14) $no $e" >&2
        why=
        for prog in ${SB:+sysbench} dbscale; do
            case $prog/$expect in sysbench/refuse=*) continue ;; esac
            [ "$cmd" = prepare ] && tables none
            [ "$cmd" = cleanup ] && tables standard
            if [ $prog = sysbench ]; then
                # shellcheck disable=SC2086
                sysbench $line >"$W/sb.out" 2>&1
                sbrc=$?
            else
                # shellcheck disable=SC2086
                "$DBSCALE" $line >"$W/db.out" 2>"$W/db.err"
                dbrc=$?
            fi
        done
        [ "$cmd" = prepare ] || [ "$cmd" = cleanup ] && tables standard
        if [ -n "$SB" ]; then # the expectation is sysbench's behaviour
            case $expect in
            run | ok) [ "$sbrc" -eq 0 ] || why="sysbench itself exits $sbrc" ;;
            fail | better) [ "$sbrc" -ne 0 ] || why="sysbench itself exits 0" ;;
            esac
        fi
        if [ -z "$why" ]; then
            case $expect in
            run)
                if [ "$dbrc" -ne 0 ]; then
                    why="exit $dbrc: $(head -c 300 "$W/db.err")"
                elif [ -n "$SB" ] && ! d=$(same_fields "$W/sb.out" "$W/db.out"); then
                    why="a report field differs: $d"
                elif [ -z "$SB" ] && ! grep -q '^SQL statistics:' "$W/db.out" &&
                    ! echo "$line" | grep -q 'verbosity=[012]'; then
                    why="no report"
                fi
                ;;
            ok)
                if [ "$dbrc" -ne 0 ]; then
                    why="exit $dbrc: $(head -c 300 "$W/db.err")"
                elif [ -n "$pattern" ] && ! cat "$W/db.out" "$W/db.err" | grep -Eq "$pattern"; then
                    why="no '$pattern' in: $(head -c 300 "$W/db.out")"
                elif [ -n "$pattern" ] && [ -n "$SB" ] && ! grep -Eq "$pattern" "$W/sb.out"; then
                    why="sysbench printed no '$pattern'"
                fi
                ;;
            fail) [ "$dbrc" -ne 0 ] || why="exit 0 where sysbench fails" ;;
            better) [ "$dbrc" -eq 0 ] || why="exit $dbrc: $(head -c 300 "$W/db.err")" ;;
            refuse=*)
                opt=${expect#refuse=}
                if [ "$dbrc" -ne 2 ] || ! grep -q -- "$opt" "$W/db.err"; then
                    why="not refused naming $opt (exit $dbrc): $(head -c 300 "$W/db.err")"
                else
                    refused=$((refused + 1))
                fi
                ;;
            *) fail "line $no: unknown expectation '$expect'" ;;
            esac
        fi
        if [ -n "$why" ]; then
            bad=$((bad + 1))
            failed="$failed $no/$e"
            printf 'line %s (%s) %s: %s\n    %s\n' "$no" "$e" "$expect" "$args" "$why" >&2
        fi
    done <"$LINES"
    stop_server
}

check_engine pgsql
check_engine mysql
[ "$n" -gt 0 ] || skip "no engine installed"
[ "$bad" -eq 0 ] || fail "$bad of $n command lines do not behave as in sysbench:$failed"
echo "sysbench_cmdlines: $n command lines behave as in sysbench${SB:+ (checked beside it)}" \
    "or are refused with a reason ($refused)"
exit 0
