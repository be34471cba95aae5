#!/bin/sh
# micro_cli.sh - dbscale micro and dbscale fs from the command line: the
# reference layouts, DIR/micro.csv and DIR/fs.csv, and exit 2 on bad input.
# $1 is the dbscale binary. Exit 0 pass, anything else fail.
bin=${1:?usage: micro_cli.sh DBSCALE}
. "$(dirname "$0")/lib.sh" "$1"
tmp=$(mktemp -d /tmp/micro_cli.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# 0.1 s samples: at 0.05 s a loaded 2-CPU machine sometimes gave a task no
# time at all in a sample (median 0 ops)
quick="--warmup=0.05 --samples=3 --interval=0.1"
# bad input exits 2 and names what was wrong, changing nothing in $tmp
# (where the earlier results are)
IT_WATCH=$tmp
expect2() {
    refuses 2 "$want_msg" "$bin" "$@"
}

# micro: table layout, then micro.csv with its exact header and one row a point
"$bin" micro getppid1 pipe1,open3 --tasks=1,all --mode=both $quick --out "$tmp/res" \
    >"$tmp/table" 2>"$tmp/err" || { cat "$tmp/err"; fail "micro run exited $?"; }
cat "$tmp/table"
grep -q '^test  *mode tasks  *ops/s  *min  *max  *cv%$' "$tmp/table" || fail "table header"
ncpu=$(nproc)
[ "$ncpu" -gt 1 ] && levels=2 || levels=1
want=$((3 * 2 * levels))
[ "$(grep -cE '^(getppid1|pipe1|open3) +[pt] +0[0-9]+ +[0-9]+ ' "$tmp/table")" -eq "$want" ] ||
    fail "table rows: want $want"
csv=$tmp/res/micro.csv
[ "$(head -n 1 "$csv")" = "test,mode,tasks,cpus,ops_per_s,min,max,cv,samples,fs_type,error,variant,idle,boot" ] ||
    fail "micro.csv header"
[ "$(tail -n +2 "$csv" | wc -l)" -eq "$want" ] || fail "micro.csv rows: want $want"
# idle: the machine's idle share over the sampled time, as will-it-scale has it
# boot: this boot's id, the kernel's own
boot=$(cat /proc/sys/kernel/random/boot_id)
awk -F, -v boot="$boot" 'NR > 1 && (NF != 14 || $5 <= 0 || $11 != "" || split($9, s, ";") != 3 ||
                   $13 == "" || $13 < 0 || $13 > 100 || $14 != boot) { bad = 1 }
         END { exit bad }' "$csv" || fail "micro.csv fields"
ls "$tmp/res" | grep -q tmp && fail "temp file left in the output dir"

# --list: sorted by name, whatever the registry's order
"$bin" micro --list >"$tmp/list" || fail "--list exited $?"
[ "$(wc -l <"$tmp/list")" -gt 10 ] || fail "--list too short"
awk '{ print $1 }' "$tmp/list" | LC_ALL=C sort -c || fail "--list not sorted"

# --tasks=1-3 sweeps 1, 2 and 3 tasks (will-it-scale's runtest)
"$bin" micro getppid1 --tasks=1-3 --mode=thread $quick --output=csv >"$tmp/range" ||
    fail "--tasks=1-3 exited $?"
[ "$(cut -d, -f3 "$tmp/range" | tail -n +2 | tr '\n' ' ')" = "1 2 3 " ] ||
    { cat "$tmp/range"; fail "--tasks=1-3: want points at 1 2 3 tasks"; }

# --output=wis: will-it-scale's runtest.py CSV: its header, its origin row, then
# one row per task count; linear = tasks x the 1-task figure (runtest takes the
# better of the two modes)
"$bin" micro getppid1 --tasks=1-2 $quick --output=wis >"$tmp/wis" || fail "--output=wis exited $?"
cat "$tmp/wis"
[ "$(head -n 2 "$tmp/wis" | tr '\n' ' ')" = \
    "tasks,processes,processes_idle,threads,threads_idle,linear 0,0,100,0,100,0 " ] ||
    fail "wis header and origin row"
[ "$(tail -n +3 "$tmp/wis" | wc -l)" -eq 2 ] || fail "wis rows: want 2"
awk -F, 'NR == 3 { one = $2 > $4 ? $2 : $4 }
         NR > 2 && (NF != 6 || $1 != NR - 2 || $2 <= 0 || $4 <= 0 || $3 < 0 || $3 > 100 ||
                    $5 < 0 || $5 > 100 || $6 != $1 * one) { bad = 1 }
         END { exit bad }' "$tmp/wis" || fail "wis rows"
want_msg=--output=wis expect2 micro getppid1,pipe1 --output=wis
want_msg=--output=wis expect2 micro getppid1 --mode=thread --output=wis

# csv and json to stdout
"$bin" micro getppid1 --tasks=1 --mode=thread $quick --output=csv | grep -q '^getppid1,t,1,' ||
    fail "--output=csv"
"$bin" micro getppid1 --tasks=1 --mode=process $quick --output=json | grep -q '"test": "getppid1"' ||
    fail "--output=json"

# fs: the fsbench layout, one row per (files, pass), and fs.csv
"$bin" fs --files=100,1000 --passes=2 --dir="$tmp" --out "$tmp/fs" >"$tmp/fs.txt" ||
    fail "fs exited $?"
cat "$tmp/fs.txt"
grep -q '^No. of  Pass    Create' "$tmp/fs.txt" || fail "fs header"
[ "$(grep -cE '^ +(100|1000) +[12] +[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} +[0-9.]+ +[0-9]{2}:' "$tmp/fs.txt")" -eq 4 ] ||
    fail "fs rows"
[ "$(tail -n +2 "$tmp/fs/fs.csv" | wc -l)" -eq 4 ] || fail "fs.csv rows"
[ -z "$(ls "$tmp" | grep dbscale-)" ] || fail "fs left its scratch dir"

# bad input exits 2 and names what was wrong
want_msg=nosuchtest expect2 micro nosuchtest
want_msg=getppid1 expect2 micro nosuchtest
want_msg=--tasks expect2 micro getppid1 --tasks=0
want_msg=--mode expect2 micro getppid1 --mode=fibers
want_msg=--samples expect2 micro getppid1 --samples=x
want_msg=--cpus expect2 micro getppid1 --cpus=a-b
want_msg="CPU 999 does not exist" expect2 micro getppid1 --cpus=0,999
want_msg=--bogus expect2 micro --bogus=1
want_msg=--files expect2 fs --files=0
want_msg=--passes expect2 fs --passes=-1
want_msg=--dir expect2 fs --dir=/nonexistent/dir

# --help lists every option with its default
"$bin" micro --help | grep -q -- '--samples=N .*\[5\]' || fail "micro --help"
"$bin" fs --help | grep -q -- '--files=STRING .*\[100,1000,10000,50000\]' || fail "fs --help"
echo "micro_cli: ok"
