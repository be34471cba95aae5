#!/bin/sh
# The results directory's disk fills up, or turns read-only, mid-sweep: the
# sweep stops with a clear error naming the file, exits 1, and the results
# already written stay whole and readable (each write is a temp file renamed
# over the old one). Needs root for a small private tmpfs.
. "$(dirname "$0")/lib.sh" "$1"
[ "$(id -u)" -eq 0 ] || skip "needs root to mount a tmpfs"
need_engine pgsql
work=$(mktemp -d)
mnt=$work/mnt
mkdir "$mnt"
mount -t tmpfs -o size=1m tmpfs "$mnt" 2>/dev/null || skip "cannot mount a tmpfs here"
trap 'umount -l "$mnt" 2>/dev/null; rm -rf "$work"; stop_server' EXIT
start_server pgsql
C="$SERVER_OPTS --tables=1 --table-size=500"
ok "$DBSCALE" prepare oltp_point_select $C

for fault in full readonly; do
    out=$mnt/$fault
    "$DBSCALE" sweep oltp_point_select $C --server=external --threads=1,2 --repeats=20 \
        --time=0.3 --out "$out" >"$work/log" 2>&1 &
    sweep=$!
    i=0
    while [ $i -lt 200 ] && ! [ -s "$out/results.csv" ]; do sleep 0.05; i=$((i + 1)); done
    [ -s "$out/results.csv" ] || fail "$fault: no level written: $(cat "$work/log")"
    if [ $fault = full ]; then
        dd if=/dev/zero of="$mnt/filler" bs=4k 2>/dev/null # until ENOSPC
    else
        mount -o remount,ro "$mnt" || fail "cannot remount read-only"
    fi
    wait $sweep
    rc=$?
    expect_eq "$fault: sweep exit" $rc 1
    grep -q "cannot write $out/results.csv" "$work/log" || fail "$fault: no clear error: $(cat "$work/log")"
    # what is on disk is a whole CSV: a header and complete rows
    ok "$DBSCALE" compare "$out" "$out"
    cols=$(head -1 "$out/results.csv" | awk -F, '{print NF}')
    bad=$(awk -F, -v n="$cols" 'NF != n' "$out/results.csv" | wc -l)
    expect_eq "$fault: malformed lines in results.csv" "$bad" 0
    rows=$(($(wc -l <"$out/results.csv") - 1))
    echo "$fault: exit 1 with a clear error, $rows whole level(s) kept"
    if [ $fault = full ]; then rm -f "$mnt/filler"; else mount -o remount,rw "$mnt"; fi
done
