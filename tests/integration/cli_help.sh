#!/bin/sh
# Help as a sysbench user asks for it, without a server: `WORKLOAD help` in
# sysbench's layout, `help VERB` = `VERB --help`, prepare/cleanup listing only
# their own options, the environment variables in --help, a workload without a
# command refused as sysbench refuses it, and --config found from anywhere.
. "$(dirname "$0")/lib.sh" "$1"
DBSCALE=$(cd "$(dirname "$DBSCALE")" && pwd)/$(basename "$DBSCALE") # the test changes directory

# sysbench oltp_read_only help: "  --name=N<pad to 30>description [default]",
# underscores, booleans as [=on|off], the workload's options only
out=$("$DBSCALE" oltp_read_only help) || fail "oltp_read_only help failed"
echo "$out" | grep -qx 'oltp_read_only options:' || fail "no 'oltp_read_only options:' line: $out"
echo "$out" | grep -Eq '^  --table_size=N {16}[A-Z].*\[10000\]$' || fail "table_size line: $out"
echo "$out" | grep -Eq '^  --skip_trx\[=on\|off\] +.*\[off\]$' || fail "skip_trx line: $out"
echo "$out" | grep -Eq '^  --mysql_storage_engine=STRING [A-Z].*\[innodb\]$' ||
    fail "mysql_storage_engine line: $out"
echo "$out" | grep -q -- '--threads' && fail "workload help lists --threads: $out"
# sorted by name, as sysbench prints them
names=$(echo "$out" | sed -n 's/^  --\([a-z_]*\).*/\1/p')
expect_eq "workload help order" "$names" "$(echo "$names" | LC_ALL=C sort)"
out=$("$DBSCALE" select_random_points help) || fail "select_random_points help failed"
echo "$out" | grep -q -- '--random_points=N' || fail "select_random_points help: $out"
expect_eq "help oltp_read_only" "$("$DBSCALE" help oltp_read_only)" "$("$DBSCALE" oltp_read_only help)"

# dbscale help VERB = dbscale VERB --help
for v in run prepare cleanup prewarm sweep micro fs plot compare report server; do
    a=$("$DBSCALE" help $v 2>&1) || fail "help $v failed: $a"
    b=$("$DBSCALE" $v --help 2>&1) || fail "$v --help failed: $b"
    expect_eq "help $v" "$a" "$b"
done

# prepare/cleanup: only what they use
p=$("$DBSCALE" prepare --help)
echo "$p" | grep -q -- '--table-size=' || fail "prepare --help lacks --table-size"
for o in time point-selects report-interval percentile rate; do
    echo "$p" | grep -q -- "--$o=" && fail "prepare --help lists run's --$o"
done
c=$("$DBSCALE" cleanup --help)
echo "$c" | grep -q -- '--tables=' || fail "cleanup --help lacks --tables"
for o in time table-size point-selects auto-inc; do
    echo "$c" | grep -q -- "--$o=" && fail "cleanup --help lists --$o"
done
r=$("$DBSCALE" run --help)
echo "$r" | grep -q -- '--point-selects=' || fail "run --help lacks --point-selects"

# the environment variables dbscale reads, in --help
for e in PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE PGPASSFILE PGSERVICE PGSERVICEFILE \
    MYSQL_HOST MYSQL_TCP_PORT MYSQL_UNIX_PORT MYSQL_PWD DBSCALE_DATADIR DBSCALE_TXN_LOG; do
    echo "$r" | grep -q "$e" || fail "run --help does not list $e"
done
"$DBSCALE" --help | grep -q DBSCALE_SERVER_DIR || fail "--help does not list DBSCALE_SERVER_DIR"
# every variable the code reads by name is in --help (a new getenv needs a line in help.c);
# ranks/ is dbscale-mpi's alone, which dbscale --help does not describe
src=$(cd "$(dirname "$0")/../../driver" && pwd)
all=$("$DBSCALE" --help)
for e in $(grep -rhoE --exclude-dir=ranks 'getenv\("[A-Za-z_]+"\)' "$src" | sed 's/getenv("\(.*\)")/\1/' | sort -u); do
    echo "$all" | grep -q "$e" || fail "dbscale --help does not list $e, which the code reads"
done

# --help anywhere is an answer, as in sysbench: here, run's options
out=$("$DBSCALE" oltp_read_only --threads=4 --help) || fail "oltp_read_only --help failed"
expect_eq "oltp_read_only --help" "$out" "$("$DBSCALE" run --help)"
# a workload without a command: sysbench's message and exit code 1
err=$("$DBSCALE" oltp_read_only --threads=4 2>&1 >/dev/null)
rc=$?
expect_eq "workload without command: exit" "$rc" 1
echo "$err" | grep -q 'Command is required. Supported commands: prepare, prewarm, run, cleanup, help' ||
    fail "workload without command: $err"
echo "$err" | grep -q 'unknown verb' && fail "workload without command says unknown verb: $err"
"$DBSCALE" no_such_thing >/dev/null 2>&1
rc=$?
expect_eq "unknown verb: exit" "$rc" 2

# --config: a bare name and configs/NAME from another directory; a missing
# one says where it looked. A bad extra option after the file proves the
# file was read (the config's errors come first).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
for cfg in pgsql-cpu-count.ini configs/pgsql-cpu-count.ini; do
    err=$("$DBSCALE" sweep --config "$cfg" --no-such-option 2>&1)
    rc=$?
    expect_eq "sweep --config $cfg: exit" "$rc" 2
    echo "$err" | grep -q "no-such-option" || fail "--config $cfg not found: $err"
done
err=$("$DBSCALE" run oltp_read_only --config=nope.ini 2>&1)
rc=$?
expect_eq "missing config: exit" "$rc" 2
echo "$err" | grep -q "$tmp/nope.ini" || fail "missing config: no working directory in: $err"
echo "$err" | grep -q "share/dbscale/configs/nope.ini" || fail "missing config: no share dir in: $err"
# the working directory wins
printf 'workload = oltp_point_select\nno-such-key = 1\n' >pgsql-cpu-count.ini
err=$("$DBSCALE" sweep --config pgsql-cpu-count.ini 2>&1)
echo "$err" | grep -q "no-such-key" || fail "working directory's config not read first: $err"
echo "cli_help: ok"
