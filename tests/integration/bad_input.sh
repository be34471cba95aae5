#!/bin/sh
# Malformed invocations: each exits 2 with a message naming the problem, and
# never crashes. Rows: expected exit | a word the message must contain | args.
. "$(dirname "$0")/lib.sh" "$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'threads = 4\nbogus = 1\n' >"$work/unknown.ini"
printf 'threads = many\n' >"$work/badval.ini"
printf 'this line has no equals sign\n' >"$work/malformed.ini"
printf 'engine,variant\npgsql\n' >"$work/results.csv"
mkfifo "$work/fifo.ini" # a FIFO with no writer: opening it to read would wait for ever
data=$(cd "$(dirname "$0")/../data" && pwd)
# a refusal leaves the files it was given, and the fixture, as they were
IT_WATCH="$work
$data"
n=0
while IFS='|' read -r want word args; do
    [ -z "$want" ] && continue
    case $want in \#*) continue ;; esac
    n=$((n + 1))
    eval "set -- $args"
    # a hang (--config=/dev/zero once read forever) is a failure too (124)
    refuses "$want" "$word" timeout 20 "$DBSCALE" "$@"
done <<EOF2
2|unknown verb|frobnicate
2|workload|run
2|unknown workload|run oltp_nonsense --db-driver=pgsql
2|did you mean '--threads'|run oltp_read_only --thread=4
2|--threads|run oltp_read_only --threads=abc
2|--threads|run oltp_read_only --threads=-3
2|--threads|run oltp_read_only --threads=99999999999
2|--time|run oltp_read_only --time=
2|needs a value|run oltp_read_only --threads
2|--rand-type|run oltp_read_only --rand-type=normal
2|--db-driver|run oltp_read_only --db-driver=oracle
2|never end|run oltp_read_only --time=0 --events=0
2|--tables|prepare select_random_points --tables=3
2|--tables|cleanup select_random_ranges --tables=2
2|--percentile|run oltp_read_only --percentile=101
2|--mysql-storage-engine|prepare oltp_read_only '--mysql-storage-engine=innodb*/;DROP'
2|--pgsql-password|run oltp_read_only --pgsql-passwort=x
2|--threads|sweep oltp_read_only --threads=
2|--threads|sweep oltp_read_only --threads=8-1
2|--cpus|sweep oltp_read_only --cpus=0
2|no CPU count|sweep oltp_read_only --cpus=4096
2|--order|sweep oltp_read_only --order=random
2|unknown test 'getpid'|sweep oltp_read_only --baseline=getppid1,getpid
2|--cpu-method|sweep oltp_read_only --cpu-method=magic
2|which workload|sweep
2|cannot read config|sweep --config=$work/missing.ini
2|--config|sweep oltp_read_only --config=$work
2|--config|run oltp_read_only --config=$work
2|--config|micro getppid1 --config=$work
2|--config|run oltp_read_only --config=/dev/zero
2|--config|sweep oltp_read_only --config=/dev/zero
2|not a regular file|run oltp_read_only --config=$work/fifo.ini
2|not a regular file|sweep --config=$work/fifo.ini
2|not a regular file|micro getppid1 --config=$work/fifo.ini
2|not a regular file|fs --config=$work/fifo.ini
2|--percentile|run oltp_read_only --percentile=
2|--percentile|run oltp_read_only --percentile=95,,99
2|--db-ignore-errors|run oltp_read_only --db-ignore-errors=abc
2|--db-ignore-errors|run oltp_read_only --db-ignore-errors=,,
2|--db-ignore-errors|run oltp_read_only --db-ignore-errors=12345678901234567890
2|--mysql-ignore-errors|run oltp_read_only --mysql-ignore-errors=1213,x
2|--report-interval|run oltp_read_only --report-interval=1e-12
2|empty|micro ""
2|empty test name|micro getppid1,,open1
2|empty test name|sweep oltp_read_only --baseline=,
2|--dir|micro getppid1 --dir=/nonexistent/x
2|--label|plot $data/pgsql-sweep --out=$work/pl --label a --label b
2|--out|sweep oltp_read_only --out=
2|--server-conf|sweep oltp_read_only --db-driver=pgsql --out=$work/sw --server-conf=port=5999
2|--out|micro getppid1 --out=
2|unknown.ini:2|sweep --config=$work/unknown.ini
2|badval.ini:1|sweep --config=$work/badval.ini
2|malformed.ini:1|sweep --config=$work/malformed.ini
2|--tasks|micro getppid1 --tasks=abc
2|unknown test|micro no_such_test
2|--files|fs --files=lots
2|engine|server start oracle
2|not a setting the server knows|server start pgsql --dir=$work/s1 --conf 'bogus line'
2|no value|server start pgsql --dir=$work/s2 --conf 'x='
2|not a setting the server knows|server start mysql --dir=$work/s3 --conf x
2|--server-conf|sweep oltp_read_only --db-driver=pgsql --out=$work/sw2 --server-conf='bogus line'
2|--port|server start pgsql --port=70000
2|results.csv|plot $work/results.csv
2|no such|compare $work/nothere $work/nothere2
EOF2
echo "bad input: $n invocations, each exit 2 with a clear message"
