#!/bin/sh
# bench/profile.sh - where the client's CPU goes. One dbscale run under
# `perf record -g` against a throwaway server, then the share of the
# client's samples spent under the send and receive calls, the wait, and
# the client library's reply parsing (perf's "children" share), and by
# library. This is the measurement behind README's floor argument: what
# every client pays per statement, whatever its design.
# Usage: bench/profile.sh path/to/dbscale [ENGINE [WORKLOAD [THREADS [TIME]]]]
set -u
DBSCALE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ENG=${2:-pgsql} WL=${3:-oltp_read_only} TH=${4:-4} TIME=${5:-5}
command -v perf >/dev/null || { echo "profile: perf is not installed (apt-get install linux-perf)" >&2; exit 1; }
OUT=$(mktemp -d /tmp/dbscale-profile-XXXXXX)
DIR=
. "$(dirname "$0")/server.sh"
trap '[ -n "$DIR" ] && "$DBSCALE" server stop --dir "$DIR" >/dev/null 2>&1; rm -rf "$DIR" "$OUT"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 141' PIPE # a reader like head gone: still stop the server
bench_server "$ENG" || exit 1
conn="$conn --tables=4 --table-size=10000"
"$DBSCALE" prepare "$WL" $conn >/dev/null || exit 1
perf record -q -g -o "$OUT/perf.data" "$DBSCALE" run "$WL" $conn --threads="$TH" --time="$TIME" >"$OUT/run" 2>&1 ||
    { tail -5 "$OUT/run" >&2; exit 1; }
grep -E '^ *transactions:' "$OUT/run"
echo "share of the client's CPU samples ($ENG, $WL, $TH connections):"
# the library's share: libpq parses replies in PQisBusy (no I/O there);
# Connector/C's calls include the I/O they run: the execute (its send and
# the reply's head), the free that reads and drops the rows, the text reply
if [ "$ENG" = pgsql ]; then
    parse='PQisBusy' what='parsing replies'
else
    parse='mysql_stmt_execute|mysql_stmt_free_result|mysql_read_query_result|mysql_store_result'
    what='execute, rows read and dropped, text replies: their I/O included'
fi
perf report -i "$OUT/perf.data" --children --sort sym --stdio -g none 2>/dev/null |
    awk -v parse="$parse" -v what="$what" '
    $4 == "__send" || $4 == "__libc_recv" || $4 == "epoll_pwait2" || $4 ~ "^(" parse ")$" {
        s = $1; sub("%", "", s); sum[$4] += s }
    END {
        printf "  send         %5.1f%%  (the loopback send runs the server side receive and wake-up)\n", sum["__send"]
        printf "  receive      %5.1f%%\n", sum["__libc_recv"]
        printf "  wait         %5.1f%%  (epoll, including the context switch)\n", sum["epoll_pwait2"]
        p = 0; for (k in sum) if (k ~ "^(" parse ")$") p += sum[k]
        printf "  library      %5.1f%%  (%s: %s)\n", p, parse, what
    }'
echo "by library:"
perf report -i "$OUT/perf.data" --no-children --sort dso --stdio -g none 2>/dev/null | grep '%' | head -6
